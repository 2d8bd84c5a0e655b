import { createTenant, gql, rest, useTestApp } from '../helpers/app';
import request from 'supertest';
import { png } from '../helpers/images';

const t = useTestApp();

// The GraphQL surface as a dashboard uses it: generated clients pass every declared variable,
// with null for the ones the user left unset.
describe('GraphQL for a dashboard', () => {
  it('treats a null query argument as one not given: default page and limit, no filter', async () => {
    const a = await createTenant(t);
    const c = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'L', is_vip: true })).body.data;
    const job = (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'Leak', priority: 'High' })).body.data;

    const customers = await gql(
      t,
      a,
      `query($page: Int, $limit: Int, $deleted: Boolean, $filter: [CustomerFilter!], $search: String) {
        customers(page: $page, limit: $limit, includeDeleted: $deleted, filter: $filter, search: $search) { items { uuid } pagination { page limit total totalPages } }
      }`,
      { page: null, limit: null, deleted: null, filter: null, search: null },
    );
    expect(customers.errors).toBeUndefined();
    expect(customers.data.customers).toEqual({ items: [{ uuid: c.uuid }], pagination: { page: 1, limit: 50, total: 1, totalPages: 1 } });

    const jobs = await gql(t, a, `{ jobs(status: null, priority: null, customerUuid: null, locationUuid: null, assignedToUserId: null, search: null) { items { uuid } } }`);
    expect(jobs.errors).toBeUndefined();
    expect(jobs.data.jobs.items).toEqual([{ uuid: job.uuid }]);

    for (const q of [
      `{ invoices(status: null, customerUuid: null, jobUuid: null) { pagination { total } } }`,
      `{ estimates(status: null, customerUuid: null, jobUuid: null) { pagination { total } } }`,
      `{ payments(status: null, paymentType: null, invoiceUuid: null, customerUuid: null) { pagination { total } } }`,
      `{ locations(page: null) { pagination { total } } templates(limit: null) { pagination { total } } users(includeDeleted: null) { pagination { total } } }`,
      `{ jobPhotos(jobUuid: "${job.uuid}", photoType: null, page: null) { pagination { total } } }`,
    ]) {
      const res = await gql(t, a, q);
      expect(res.errors).toBeUndefined();
    }

    // A value that is given is still checked.
    const bad = await gql(t, a, `{ customers(page: 0, limit: null) { pagination { page } } }`);
    expect(bad.errors![0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'page' }] });
  });

  it('uploads photos with photoType and takenAt null as if they were omitted', async () => {
    const a = await createTenant(t);
    const c = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'L' })).body.data;
    const job = (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'Leak' })).body.data;
    const operations = {
      query: `mutation($j: UUID!, $f: [Upload!]!, $type: JobPhotoType, $at: DateTime) { uploadJobPhotos(jobUuid: $j, files: $f, photoType: $type, takenAt: $at) { photos { photoType takenAt } } }`,
      variables: { j: job.uuid, f: [null], type: null, at: null },
    };
    const res = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${a.key}`)
      .set('apollo-require-preflight', 'true')
      .field('operations', JSON.stringify(operations))
      .field('map', JSON.stringify({ 0: ['variables.f.0'] }))
      .attach('0', png(), 'a.png');
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.uploadJobPhotos.photos).toEqual([{ photoType: 'DURING', takenAt: null }]);
  });

  it('takes adjustments keyed in camelCase as GraphQL names the amounts, stored under the keys of the contract', async () => {
    const a = await createTenant(t);
    const c = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'L' })).body.data;
    const tpl = (await rest(t, a).post('/templates', { name: 'Drain', pricing_type: 'flat', base_price: 100, tax_rate: 10 })).body.data;
    const preview = await gql(t, a, `query($i: EstimatePreviewInput!) { previewEstimate(input: $i) { preview { baseAmount taxAmount totalAmount } breakdown { adjustments } } }`, {
      i: { templateUuid: tpl.uuid, adjustments: { baseAmount: 80 } },
    });
    expect(preview.errors).toBeUndefined();
    expect(preview.data.previewEstimate).toEqual({ preview: { baseAmount: 80, taxAmount: 8, totalAmount: 88 }, breakdown: { adjustments: { base_amount: 80 } } });

    const created = await gql(t, a, `mutation($i: EstimateCreateInput!) { createEstimate(input: $i) { uuid adjustments taxAmount totalAmount } }`, {
      i: { customerUuid: c.uuid, templateUuid: tpl.uuid, adjustments: { taxAmount: 5 } },
    });
    expect(created.errors).toBeUndefined();
    expect(created.data.createEstimate).toMatchObject({ adjustments: { tax_amount: 5 }, taxAmount: 5, totalAmount: 105 });
    const viaRest = (await rest(t, a).get(`/estimates/${created.data.createEstimate.uuid}`)).body.data;
    expect(viaRest.adjustments).toEqual({ tax_amount: 5 });

    const updated = await gql(t, a, `mutation($u: UUID!, $i: EstimateUpdateInput!) { updateEstimate(uuid: $u, input: $i) { adjustments totalAmount } }`, {
      u: created.data.createEstimate.uuid,
      i: { adjustments: { addonsAmount: 20 } },
    });
    expect(updated.data.updateEstimate).toEqual({ adjustments: { addons_amount: 20 }, totalAmount: 132 });

    // One amount under both spellings, or a key that is neither: 400 naming adjustments.
    for (const adjustments of [{ taxAmount: 1, tax_amount: 2 }, { discount: 1 }]) {
      const bad = await gql(t, a, `query($i: EstimatePreviewInput!) { previewEstimate(input: $i) { preview { totalAmount } } }`, { i: { templateUuid: tpl.uuid, adjustments } });
      expect(bad.errors![0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'adjustments' }] });
    }
  });
});
