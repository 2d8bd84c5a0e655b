import { createTenant, gql, rest, useTestApp } from '../../helpers/app';
import { watchStatements } from '../../helpers/statements';
import { makeCustomer, makeEstimate, makeJob, makeLocation, makeTemplate, tiered } from '../../helpers/estimate-fixtures';

const t = useTestApp();

const FIELDS = `uuid estimateNumber status templateName pricingType selectedTier quantity selectedAddons adjustments
  baseAmount addonsAmount taxAmount totalAmount customerUuid jobUuid templateUuid locationUuid createdByUserId
  serviceDescription internalNotes customerNotes responseNotes expiresAt respondedAt createdAt updatedAt deletedAt`;

describe('GraphQL estimates', () => {
  it('createEstimate, estimate with relations, estimates with filters', async () => {
    const a = await createTenant(t);
    const customer = await makeCustomer(t, a);
    const template = await makeTemplate(t, a, { ...tiered, addons: [{ id: 'x', name: 'Extra', price: 10 }], tax_rate: 10 });
    const job = await makeJob(t, a, customer.uuid);
    const loc = await makeLocation(t, a);
    const c = await gql(t, a, `mutation($i: EstimateCreateInput!) { createEstimate(input: $i) { ${FIELDS} } }`, {
      i: { customerUuid: customer.uuid, templateUuid: template.uuid, jobUuid: job.uuid, locationUuid: loc.uuid, selectedTier: 'GOOD', quantity: 2, selectedAddons: ['x'], expiresAt: '2999-01-01' },
    });
    expect(c.errors).toBeUndefined();
    const e = c.data.createEstimate;
    expect(e).toMatchObject({
      estimateNumber: 'EST-0001', status: 'PENDING', pricingType: 'TIERED', selectedTier: 'GOOD', quantity: 2, selectedAddons: ['x'],
      baseAmount: 178, addonsAmount: 10, taxAmount: 18.8, totalAmount: 206.8, createdByUserId: a.userId, respondedAt: null,
    });
    const g = await gql(t, a, `query($u: UUID!) { estimate(uuid: $u) { uuid customer { firstName } job { title } template { name pricingType } location { city } createdBy { id } } }`, { u: e.uuid });
    expect(g.data.estimate).toEqual({ uuid: e.uuid, customer: { firstName: 'Ada' }, job: { title: 'Replace heater' }, template: { name: 'AC tune-up', pricingType: 'TIERED' }, location: { city: 'Springfield' }, createdBy: { id: a.userId } });
    const list = await gql(t, a, `query($c: UUID) { estimates(customerUuid: $c, status: [PENDING], search: "tune") { items { uuid customer { lastName } } pagination { total } } }`, { c: customer.uuid });
    expect(list.data.estimates).toEqual({ items: [{ uuid: e.uuid, customer: { lastName: 'Lovelace' } }], pagination: { total: 1 } });
    const none = await gql(t, a, `{ estimates(status: [EXPIRED, DECLINED]) { pagination { total } } }`);
    expect(none.data.estimates.pagination.total).toBe(0);
  });

  it('previewEstimate is a query with the REST shape and the same numbers as REST', async () => {
    const a = await createTenant(t);
    const template = await makeTemplate(t, a);
    const q = `query($i: EstimatePreviewInput!) { previewEstimate(input: $i) { preview { baseAmount addonsAmount taxAmount totalAmount } breakdown { baseAmount addons { name price } adjustments } } }`;
    const g = await gql(t, a, q, { i: { templateUuid: template.uuid, quantity: 1.5, selectedAddons: ['permit'], adjustments: { addons_amount: 40 } } });
    expect(g.errors).toBeUndefined();
    const r = await rest(t, a).post('/estimates/preview', { template_uuid: template.uuid, quantity: 1.5, selected_addons: ['permit'], adjustments: { addons_amount: 40 } });
    expect(g.data.previewEstimate).toEqual({
      preview: { baseAmount: 1500, addonsAmount: 40, taxAmount: 127.05, totalAmount: 1667.05 },
      breakdown: { baseAmount: 1500, addons: [{ name: 'Permit', price: 49.99 }], adjustments: { addons_amount: 40 } },
    });
    expect(r.body.data.preview).toEqual({ base_amount: 1500, addons_amount: 40, tax_amount: 127.05, total_amount: 1667.05 });
    const bad = await gql(t, a, q, { i: { templateUuid: template.uuid, selectedAddons: ['nope'] } });
    expect(bad.errors?.[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(bad.errors?.[0].extensions.details?.[0].field).toBe('selectedAddons');
  });

  it('updateEstimate: status and recomputation; errors name camelCase fields; deleteEstimate', async () => {
    const a = await createTenant(t);
    const { estimate } = await makeEstimate(t, a);
    const u = await gql(t, a, `mutation($u: UUID!) { updateEstimate(uuid: $u, input: { status: DECLINED, responseNotes: "Too pricey", quantity: 2 }) { status responseNotes respondedAt baseAmount totalAmount } }`, { u: estimate.uuid });
    expect(u.errors).toBeUndefined();
    expect(u.data.updateEstimate).toMatchObject({ status: 'DECLINED', responseNotes: 'Too pricey', baseAmount: 2000, totalAmount: 2165 });
    expect(u.data.updateEstimate.respondedAt).not.toBeNull();
    const bad = await gql(t, a, `mutation($u: UUID!) { updateEstimate(uuid: $u, input: { quantity: -1 }) { uuid } }`, { u: estimate.uuid });
    expect(bad.errors?.[0].extensions.details?.[0].field).toBe('quantity');
    // Fields outside the permitted set are not in the update input at all.
    const ro = await gql(t, a, `mutation($u: UUID!) { updateEstimate(uuid: $u, input: { customerUuid: $u }) { uuid } }`, { u: estimate.uuid });
    expect(ro.errors).toBeDefined();
    const d = await gql(t, a, `mutation($u: UUID!) { deleteEstimate(uuid: $u) { message } }`, { u: estimate.uuid });
    expect(typeof d.data.deleteEstimate.message).toBe('string');
    const gone = await gql(t, a, `query($u: UUID!) { estimate(uuid: $u) { uuid } }`, { u: estimate.uuid });
    expect(gone.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });

  it('tenancy: another company cannot see or reference', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other' });
    const { estimate, template } = await makeEstimate(t, a);
    const mine = await makeCustomer(t, b);
    expect((await gql(t, b, `query($u: UUID!) { estimate(uuid: $u) { uuid } }`, { u: estimate.uuid })).errors?.[0].extensions.code).toBe('NOT_FOUND');
    const c = await gql(t, b, `mutation($i: EstimateCreateInput!) { createEstimate(input: $i) { uuid } }`, { i: { customerUuid: mine.uuid, templateUuid: template.uuid } });
    expect(c.errors?.[0].extensions.details?.[0].field).toBe('templateUuid');
    expect((await gql(t, b, `{ estimates { pagination { total } } }`)).data.estimates.pagination.total).toBe(0);
  });

  it('loads relations of a page in a fixed number of statements', async () => {
    const a = await createTenant(t);
    const q = `{ estimates(limit: 100) { items { customer { uuid } template { uuid } job { uuid } location { uuid } createdBy { id } } } }`;
    const statements = async () => {
      // The request's statements as the driver sends them, without the key's last-use mark (the
      // first request of a minute writes it) and the write-position sweep that follows the
      // fixtures' commits in the background: neither is the page's (test/helpers/statements.ts).
      const watch = watchStatements();
      const res = await gql(t, a, q);
      watch.stop();
      expect(res.errors).toBeUndefined();
      return { n: watch.count, items: res.data.estimates.items.length };
    };
    for (let i = 0; i < 2; i++) await makeEstimate(t, a);
    const small = await statements();
    for (let i = 0; i < 5; i++) await makeEstimate(t, a);
    const large = await statements();
    expect([small.items, large.items]).toEqual([2, 7]);
    expect(small.n).toBeGreaterThan(0);
    expect(large.n).toBe(small.n);
  });
});
