import { addUser, createTenant, gql, rest, Tenant, TestApp, useTestApp } from '../../helpers/app';

const t = useTestApp();

async function customer(t: TestApp, a: Tenant, first = 'Ada') {
  return (await rest(t, a).post('/customers', { first_name: first, last_name: 'Lovelace' })).body.data;
}

const JOB_FIELDS = `uuid jobNumber title status priority isUrgent customerUuid locationUuid assignedToUserId estimatedAmount actualAmount
  scheduledDate scheduledTimeStart scheduledTimeEnd startedAt completedAt invoicedAt paidAt deletedAt
  customer { uuid firstName } location { uuid name } assignedTo { id firstName } photos { uuid }`;

describe('GraphQL jobs', () => {
  it('creates, reads, lists with filters, updates with side effects and deletes', async () => {
    const a = await createTenant(t);
    const c = await customer(t, a);
    const loc = (await rest(t, a).post('/locations', { name: 'Main', address1: '1 Elm', city: 'X', state: 'IL', zip: '62701' })).body.data;
    const tech = await addUser(t, a);
    const created = await gql(t, a, `mutation($input: JobCreateInput!) { createJob(input: $input) { ${JOB_FIELDS} } }`, {
      input: { customerUuid: c.uuid, title: 'Fix', locationUuid: loc.uuid, assignedToUserId: tech.id, priority: 'HIGH', estimatedAmount: 10.25, scheduledDate: '2026-12-01', scheduledTimeStart: '08:00' },
    });
    expect(created.errors).toBeUndefined();
    const j = created.data.createJob;
    expect(j).toMatchObject({
      jobNumber: '1', status: 'NEW', priority: 'HIGH', isUrgent: false, estimatedAmount: 10.25, scheduledDate: '2026-12-01',
      customer: { uuid: c.uuid, firstName: 'Ada' }, location: { uuid: loc.uuid, name: 'Main' }, assignedTo: { id: tech.id, firstName: 'Tess' }, photos: [],
    });
    const got = await gql(t, a, `query($uuid: UUID!) { job(uuid: $uuid) { uuid title } }`, { uuid: j.uuid });
    expect(got.data.job).toEqual({ uuid: j.uuid, title: 'Fix' });
    const upd = await gql(t, a, `mutation($uuid: UUID!, $input: JobUpdateInput!) { updateJob(uuid: $uuid, input: $input) { status startedAt actualAmount description } }`, {
      uuid: j.uuid, input: { status: 'IN_PROGRESS', actualAmount: 99, description: null },
    });
    expect(upd.data.updateJob).toMatchObject({ status: 'IN_PROGRESS', actualAmount: 99, description: null });
    expect(upd.data.updateJob.startedAt).toMatch(/Z$/);
    await gql(t, a, `mutation($input: JobCreateInput!) { createJob(input: $input) { uuid } }`, { input: { customerUuid: c.uuid, title: 'Other', status: 'READY_TO_INVOICE' } });
    const list = await gql(t, a, `{ jobs(status: [IN_PROGRESS, READY_TO_INVOICE], search: "fix") { items { uuid } pagination { page limit total totalPages } } }`);
    expect(list.data.jobs).toEqual({ items: [{ uuid: j.uuid }], pagination: { page: 1, limit: 50, total: 1, totalPages: 1 } });
    const byUser = await gql(t, a, `query($u: UUID!) { jobs(assignedToUserId: $u, priority: [HIGH]) { items { uuid } } }`, { u: tech.id });
    expect(byUser.data.jobs.items).toEqual([{ uuid: j.uuid }]);
    const del = await gql(t, a, `mutation($uuid: UUID!) { deleteJob(uuid: $uuid) { message } }`, { uuid: j.uuid });
    expect(del.data.deleteJob).toEqual({ message: 'Job deleted' });
    const gone = await gql(t, a, `query($uuid: UUID!) { job(uuid: $uuid) { uuid } }`, { uuid: j.uuid });
    expect(gone.errors![0].extensions.code).toBe('NOT_FOUND');
  });

  it('validates like REST, naming the GraphQL fields', async () => {
    const a = await createTenant(t);
    const c = await customer(t, a);
    const bad = async (input: object) => {
      const r = await gql(t, a, `mutation($input: JobCreateInput!) { createJob(input: $input) { uuid } }`, { input: { customerUuid: c.uuid, title: 'T', ...input } });
      expect(r.errors![0].extensions.code).toBe('VALIDATION_ERROR');
      return r.errors![0].extensions.details?.map((d) => d.field) ?? [];
    };
    expect(await bad({ scheduledTimeStart: '25:00' })).toContain('scheduledTimeStart');
    expect(await bad({ scheduledTimeStart: '10:00', scheduledTimeEnd: '09:00' })).toContain('scheduledTimeEnd');
    expect(await bad({ assignedToUserId: '00000000-0000-4000-8000-000000000000' })).toContain('assignedToUserId');
    expect(await bad({ estimatedAmount: -5 })).toContain('estimatedAmount');
    expect(await bad({ status: 'DONE' })).toBeDefined();
  });

  it('Customer.jobs: newest first, not deleted, limit (default and max 100)', async () => {
    const a = await createTenant(t);
    const c1 = await customer(t, a, 'One');
    const c2 = await customer(t, a, 'Two');
    const mk = async (cu: string, title: string) => (await rest(t, a).post('/jobs', { customer_uuid: cu, title })).body.data;
    const j1 = await mk(c1.uuid, 'a');
    const j2 = await mk(c1.uuid, 'b');
    const j3 = await mk(c2.uuid, 'c');
    await rest(t, a).delete(`/jobs/${j1.uuid}`);
    const res = await gql(t, a, `{ customers { items { firstName jobs { uuid } one: jobs(limit: 1) { uuid } } } }`);
    const byName = Object.fromEntries(res.data.customers.items.map((c: { firstName: string }) => [c.firstName, c]));
    expect(byName.One.jobs).toEqual([{ uuid: j2.uuid }]);
    expect(byName.Two.jobs).toEqual([{ uuid: j3.uuid }]);
    expect(byName.Two.one).toEqual([{ uuid: j3.uuid }]);
    const zero = await gql(t, a, `{ customers { items { jobs(limit: 0) { uuid } } } }`);
    expect(zero.errors![0].extensions.code).toBe('VALIDATION_ERROR');
  });

  it('keeps companies apart', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Rival' });
    const ca = await customer(t, a);
    const cb = await customer(t, b);
    const ja = (await rest(t, a).post('/jobs', { customer_uuid: ca.uuid, title: 'Mine' })).body.data;
    const get = await gql(t, b, `query($uuid: UUID!) { job(uuid: $uuid) { uuid } }`, { uuid: ja.uuid });
    expect(get.errors![0].extensions.code).toBe('NOT_FOUND');
    const upd = await gql(t, b, `mutation($uuid: UUID!) { updateJob(uuid: $uuid, input: { title: "x" }) { uuid } }`, { uuid: ja.uuid });
    expect(upd.errors![0].extensions.code).toBe('NOT_FOUND');
    const del = await gql(t, b, `mutation($uuid: UUID!) { deleteJob(uuid: $uuid) { message } }`, { uuid: ja.uuid });
    expect(del.errors![0].extensions.code).toBe('NOT_FOUND');
    expect((await gql(t, b, `{ jobs { items { uuid } } }`)).data.jobs.items).toEqual([]);
    const ref = await gql(t, b, `mutation($input: JobCreateInput!) { createJob(input: $input) { uuid } }`, { input: { customerUuid: ca.uuid, title: 'T' } });
    expect(ref.errors![0].extensions.details![0].field).toBe('customerUuid');
    expect((await gql(t, b, `mutation($input: JobCreateInput!) { createJob(input: $input) { uuid } }`, { input: { customerUuid: cb.uuid, title: 'T' } })).data.createJob.uuid).toBeDefined();
  });
});
