import { createTenant, gql, rest, useDbClient, useTestApp } from '../../helpers/app';

// External ids and upsert by them (docs/custom-fields.md, "External ids"), on both surfaces.

const t = useTestApp();
const db = useDbClient();

describe('external ids', () => {
  it('twenty concurrent upserts of one (source, id) make one record; another company may use the same id', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other Co' });
    const path = '/customers/by_external_id/crm/C-42';
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => rest(t, a).put(path, { first_name: 'Ada', last_name: `Run${i}` })));
    expect(answers.map((r) => r.status).sort((x, y) => x - y)).toEqual([...Array(19).fill(200), 201]);
    const uuids = new Set(answers.map((r) => r.body.data.uuid));
    expect(uuids.size).toBe(1);
    const { rows } = await db.query(`select count(*)::int as n from customers where company_uuid = $1`, [a.companyUuid]);
    expect(rows[0].n).toBe(1);
    const got = await rest(t, a).get(path);
    expect(got.status).toBe(200);
    expect(got.body.data.external_ids).toEqual({ crm: 'C-42' });
    expect(got.body.data.uuid).toBe([...uuids][0]);
    // Company B: its own record under the same id; A's is invisible to it.
    expect((await rest(t, b).get(path)).status).toBe(404);
    const other = await rest(t, b).put(path, { first_name: 'Bea', last_name: 'Other' });
    expect(other.status).toBe(201);
    expect(other.body.data.uuid).not.toBe(got.body.data.uuid);
    expect((await rest(t, a).get(path)).body.data.first_name).toBe('Ada');
  });

  it('an id held by another record is a 400 naming external_ids.<source> and the record; null clears a source', async () => {
    const a = await createTenant(t);
    const first = await rest(t, a).post('/customers', { first_name: 'A', last_name: 'One', external_ids: { crm: 'X1', erp: 'E1' } });
    expect(first.status).toBe(200);
    expect(first.body.data.external_ids).toEqual({ crm: 'X1', erp: 'E1' });
    const second = await rest(t, a).post('/customers', { first_name: 'B', last_name: 'Two', external_ids: { crm: 'X1' } });
    expect(second.status).toBe(400);
    expect(second.body.error.details[0].field).toBe('external_ids.crm');
    expect(second.body.error.message).toContain(first.body.data.uuid);
    const cleared = await rest(t, a).put(`/customers/${first.body.data.uuid}`, { external_ids: { crm: null } });
    expect(cleared.body.data.external_ids).toEqual({ erp: 'E1' });
    expect((await rest(t, a).get('/customers/by_external_id/crm/X1')).status).toBe(404);
    expect((await rest(t, a).post('/customers', { first_name: 'B', last_name: 'Two', external_ids: { crm: 'X1' } })).status).toBe(200);
    const bad = await rest(t, a).post('/customers', { first_name: 'B', last_name: 'Two', external_ids: { 'Bad-Source': 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('external_ids');
  });

  it('a create by upsert needs what a create needs; a deleted holder is a 409', async () => {
    const a = await createTenant(t);
    const missing = await rest(t, a).put('/customers/by_external_id/crm/N1', { first_name: 'Only' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.map((d: { field: string }) => d.field)).toEqual(['last_name']);
    const made = await rest(t, a).put('/customers/by_external_id/crm/N1', { first_name: 'Ada', last_name: 'L' });
    expect(made.status).toBe(201);
    const updated = await rest(t, a).put('/customers/by_external_id/crm/N1', { phone: '217 555 0101' });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ first_name: 'Ada', phone: '217-555-0101' });
    // GET → edit → PUT, with the record's read-only fields, and If-Match as on the record's own PUT.
    const got = await rest(t, a).get('/customers/by_external_id/crm/N1');
    const edited = await rest(t, a).put('/customers/by_external_id/crm/N1', { ...got.body.data, last_name: 'Lovelace' }).set('If-Match', got.headers.etag);
    expect(edited.status).toBe(200);
    expect(edited.body.data.last_name).toBe('Lovelace');
    expect((await rest(t, a).put('/customers/by_external_id/crm/N1', { last_name: 'Stale' }).set('If-Match', got.headers.etag)).status).toBe(412);
    await rest(t, a).delete(`/customers/${made.body.data.uuid}`);
    expect((await rest(t, a).get('/customers/by_external_id/crm/N1')).status).toBe(404);
    expect((await rest(t, a).put('/customers/by_external_id/crm/N1', { first_name: 'Z' })).status).toBe(409);
  });

  it('jobs and templates by external id; GraphQL looks up and upserts too', async () => {
    const a = await createTenant(t);
    const customer = (await rest(t, a).put('/customers/by_external_id/crm/C1', { first_name: 'Ada', last_name: 'L' })).body.data;
    const job = await rest(t, a).put('/jobs/by_external_id/fsm/J-1', { customer_uuid: customer.uuid, title: 'Boiler' });
    expect(job.status).toBe(201);
    expect(job.body.data.customer).toMatchObject({ uuid: customer.uuid });
    const tpl = await rest(t, a).put('/templates/by_external_id/qb/T1', { name: 'Tune-up', pricing_type: 'flat', base_price: 90 });
    expect(tpl.status).toBe(201);
    const found = await gql(t, a, `query($s: String!, $i: String!) { customerByExternalId(source: $s, id: $i) { uuid externalIds } }`, { s: 'crm', i: 'C1' });
    expect(found.data.customerByExternalId).toEqual({ uuid: customer.uuid, externalIds: { crm: 'C1' } });
    const up = await gql(t, a, `mutation($s: String!, $i: String!, $in: JobUpdateInput!) { upsertJobByExternalId(source: $s, id: $i, input: $in) { created job { uuid title } } }`, { s: 'fsm', i: 'J-1', in: { title: 'Boiler v2' } });
    expect(up.data.upsertJobByExternalId).toEqual({ created: false, job: { uuid: job.body.data.uuid, title: 'Boiler v2' } });
    const made = await gql(t, a, `mutation($in: CustomerUpdateInput!) { upsertCustomerByExternalId(source: "crm", id: "C2", input: $in) { created customer { firstName externalIds } } }`, { in: { firstName: 'Bo', lastName: 'B' } });
    expect(made.data.upsertCustomerByExternalId).toEqual({ created: true, customer: { firstName: 'Bo', externalIds: { crm: 'C2' } } });
    const other = await createTenant(t, { name: 'Other' });
    const hidden = await gql(t, other, `{ customerByExternalId(source: "crm", id: "C1") { uuid } }`);
    expect(hidden.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
