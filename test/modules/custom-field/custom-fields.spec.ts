import { createTenant, gql, rest, Tenant, useTestApp } from '../../helpers/app';
import { keyFor } from '../../helpers/people';
import { readAll } from '../../helpers/events';

// Custom field definitions and values (docs/custom-fields.md), on both surfaces.

const t = useTestApp();

// Each type: a value sent, what is stored, and a value refused.
const CASES: Array<{ key: string; type: string; options?: string[]; good: unknown; stored: unknown; bad: unknown }> = [
  { key: 'gate_code', type: 'text', good: '  4411 ', stored: '4411', bad: 12 },
  { key: 'tonnage', type: 'number', good: 2.5, stored: 2.5, bad: 'two' },
  { key: 'deposit', type: 'money', good: 12.5, stored: 12.5, bad: 1.234 },
  { key: 'has_dog', type: 'boolean', good: true, stored: true, bad: 'yes' },
  { key: 'warranty_until', type: 'date', good: '2027-05-01', stored: '2027-05-01', bad: '2027-02-30' },
  { key: 'unit', type: 'select', options: ['heat pump', 'furnace'], good: 'furnace', stored: 'furnace', bad: 'boiler' },
  { key: 'trades', type: 'multi_select', options: ['hvac', 'plumbing', 'electric'], good: ['plumbing', 'hvac', 'hvac'], stored: ['hvac', 'plumbing'], bad: ['roofing'] },
  { key: 'portal', type: 'url', good: 'https://portal.example/a', stored: 'https://portal.example/a', bad: 'portal.example' },
  { key: 'billing_email', type: 'email', good: 'Ops@Example.COM', stored: 'ops@example.com', bad: 'nope' },
  { key: 'alt_phone', type: 'phone', good: '(217) 555-0199', stored: '217-555-0199', bad: '555' },
];

async function defineAll(tenant: Tenant, resource = 'customer') {
  for (const c of CASES) {
    const r = await rest(t, tenant).post('/custom_fields', { resource, key: c.key, label: c.key, type: c.type, ...(c.options ? { options: c.options } : {}) });
    expect(r.status).toBe(200);
  }
}

describe('custom field definitions', () => {
  it('are typed and checked: key, options, default, type and key fixed, one key per resource', async () => {
    const a = await createTenant(t);
    const bad = async (body: object, field: string) => {
      const r = await rest(t, a).post('/custom_fields', { resource: 'job', label: 'X', type: 'text', key: 'x', ...body });
      expect(r.status).toBe(400);
      expect(r.body.error.details[0].field).toBe(field);
    };
    await bad({ key: 'Gate-Code' }, 'key');
    await bad({ type: 'select' }, 'options');
    await bad({ type: 'select', options: ['a', 'a'] }, 'options');
    await bad({ type: 'text', options: ['a'] }, 'options');
    await bad({ type: 'number', default: 'x' }, 'default');
    const made = await rest(t, a).post('/custom_fields', { resource: 'job', key: 'size', label: 'Size', type: 'select', options: [' S ', 'M'], default: 'M', position: 2 });
    expect(made.body.data).toMatchObject({ resource: 'job', key: 'size', type: 'select', options: ['S', 'M'], default: 'M', required: false, show_on_documents: false, position: 2 });
    await bad({ key: 'size' }, 'key');
    const uuid = made.body.data.uuid;
    expect((await rest(t, a).put(`/custom_fields/${uuid}`, { type: 'text' })).body.error.details[0].field).toBe('type');
    expect((await rest(t, a).put(`/custom_fields/${uuid}`, { key: 'other' })).body.error.details[0].field).toBe('key');
    const renamed = await rest(t, a).put(`/custom_fields/${uuid}`, { ...made.body.data, label: 'T-shirt size' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.label).toBe('T-shirt size');
    const listed = await rest(t, a).get('/custom_fields?resource=job');
    expect(listed.body.data.custom_fields.map((d: { key: string }) => d.key)).toEqual(['size']);
    const viaGql = await gql(t, a, '{ customFields(resource: [JOB]) { items { key type options defaultValue } } }');
    expect(viaGql.data.customFields.items).toEqual([{ key: 'size', type: 'SELECT', options: ['S', 'M'], defaultValue: 'M' }]);
  });

  it('at most 50 live definitions per resource: the 51st is a 400, and deleting one makes room', async () => {
    const a = await createTenant(t);
    const made: string[] = [];
    for (let i = 0; i < 50; i++) {
      const r = await rest(t, a).post('/custom_fields', { resource: 'customer', key: `f${i}`, label: `F${i}`, type: 'text' });
      expect(r.status).toBe(200);
      made.push(r.body.data.uuid);
    }
    const over = await rest(t, a).post('/custom_fields', { resource: 'customer', key: 'f50', label: 'F50', type: 'text' });
    expect(over.status).toBe(400);
    // Another resource has its own 50.
    expect((await rest(t, a).post('/custom_fields', { resource: 'job', key: 'f50', label: 'F50', type: 'text' })).status).toBe(200);
    expect((await rest(t, a).delete(`/custom_fields/${made[0]}`)).status).toBe(200);
    expect((await rest(t, a).post('/custom_fields', { resource: 'customer', key: 'f50', label: 'F50', type: 'text' })).status).toBe(200);
  });

  it('only owners and admins change them; office staff read them; technicians neither', async () => {
    const a = await createTenant(t);
    const office = await keyFor(t, a, { role: 'office' });
    const admin = await keyFor(t, a, { role: 'admin' });
    const tech = await keyFor(t, a, { role: 'technician' });
    const body = { resource: 'customer', key: 'k', label: 'K', type: 'text' };
    expect((await rest(t, office).post('/custom_fields', body)).status).toBe(403);
    expect((await rest(t, admin).post('/custom_fields', body)).status).toBe(200);
    expect((await rest(t, office).get('/custom_fields')).status).toBe(200);
    expect((await rest(t, tech).get('/custom_fields')).status).toBe(403);
    expect((await gql(t, office, 'mutation { deleteCustomFieldDefinition(uuid: "00000000-0000-4000-8000-000000000000") { message } }')).errors?.[0].extensions.code).toBe('PERMISSION_DENIED');
  });
});

describe('custom field values', () => {
  it('every type: a valid value normalised as the built-in field of its kind, a wrong one a 400 naming custom_fields.<key> (REST)', async () => {
    const a = await createTenant(t);
    await defineAll(a);
    const good = Object.fromEntries(CASES.map((c) => [c.key, c.good]));
    const made = await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'L', custom_fields: good });
    expect(made.status).toBe(200);
    expect(made.body.data.custom_fields).toEqual(Object.fromEntries(CASES.map((c) => [c.key, c.stored])));
    for (const c of CASES) {
      const r = await rest(t, a).put(`/customers/${made.body.data.uuid}`, { custom_fields: { [c.key]: c.bad } });
      expect([c.key, r.status]).toEqual([c.key, 400]);
      expect(r.body.error.details.map((d: { field: string }) => d.field)).toEqual([`custom_fields.${c.key}`]);
    }
    const unknown = await rest(t, a).put(`/customers/${made.body.data.uuid}`, { custom_fields: { nope: 1 } });
    expect(unknown.body.error.details[0].field).toBe('custom_fields.nope');
    // PUT merges keys; null clears one.
    const merged = await rest(t, a).put(`/customers/${made.body.data.uuid}`, { custom_fields: { gate_code: '99', tonnage: null } });
    expect(merged.body.data.custom_fields.gate_code).toBe('99');
    expect(merged.body.data.custom_fields).not.toHaveProperty('tonnage');
    expect(merged.body.data.custom_fields.unit).toBe('furnace');
  });

  it('every type on GraphQL: customFields as JSON, customFieldValues with the types, errors naming customFields.<key>', async () => {
    const a = await createTenant(t);
    await defineAll(a, 'job');
    const customer = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'L' })).body.data;
    const good = Object.fromEntries(CASES.map((c) => [c.key, c.good]));
    const made = await gql(t, a, 'mutation($in: JobCreateInput!) { createJob(input: $in) { uuid customFields customFieldValues { key type value definition { label } } } }', { in: { customerUuid: customer.uuid, title: 'T', customFields: good } });
    expect(made.errors).toBeUndefined();
    expect(made.data.createJob.customFields).toEqual(Object.fromEntries(CASES.map((c) => [c.key, c.stored])));
    // In the definitions' order: position, then key.
    const byKey = [...CASES].sort((x, y) => x.key.localeCompare(y.key));
    expect(made.data.createJob.customFieldValues).toEqual(byKey.map((c) => ({ key: c.key, type: c.type.toUpperCase(), value: c.stored, definition: { label: c.key } })));
    for (const c of CASES) {
      const r = await gql(t, a, 'mutation($u: UUID!, $in: JobUpdateInput!) { updateJob(uuid: $u, input: $in) { uuid } }', { u: made.data.createJob.uuid, in: { customFields: { [c.key]: c.bad } } });
      expect(r.errors?.[0].extensions.code).toBe('VALIDATION_ERROR');
      expect(r.errors?.[0].extensions.details?.map((d) => d.field)).toEqual([`customFields.${c.key}`]);
    }
  });

  it('a required field is required on create (its default fills it) and cannot be cleared; other resources carry values too', async () => {
    const a = await createTenant(t);
    await rest(t, a).post('/custom_fields', { resource: 'customer', key: 'source', label: 'Source', type: 'select', options: ['web', 'phone'], required: true });
    const missing = await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].field).toBe('custom_fields.source');
    const made = await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B', custom_fields: { source: 'web' } });
    expect(made.status).toBe(200);
    expect((await rest(t, a).put(`/customers/${made.body.data.uuid}`, { custom_fields: { source: null } })).status).toBe(400);
    expect((await rest(t, a).put(`/customers/${made.body.data.uuid}`, { notes: 'fine' })).status).toBe(200);
    await rest(t, a).post('/custom_fields', { resource: 'location', key: 'dock', label: 'Dock', type: 'number', required: true, default: 3 });
    const loc = await rest(t, a).post('/locations', { name: 'Depot', address1: '1 Main', city: 'Springfield', state: 'IL', zip: '62701' });
    expect(loc.body.data.custom_fields).toEqual({ dock: 3 });
    // An invoice (written in one statement, src/modules/invoice/invoice.write.ts) and a visit carry theirs.
    await rest(t, a).post('/custom_fields', { resource: 'invoice', key: 'po', label: 'PO', type: 'text', required: true });
    await rest(t, a).post('/custom_fields', { resource: 'visit', key: 'gate', label: 'Gate', type: 'boolean', default: false });
    const job = (await rest(t, a).post('/jobs', { customer_uuid: made.body.data.uuid, title: 'T' })).body.data;
    expect((await rest(t, a).post('/invoices', { job_uuid: job.uuid, customer_uuid: made.body.data.uuid, due_date: '2027-01-31' })).body.error.details[0].field).toBe('custom_fields.po');
    const inv = await rest(t, a).post('/invoices', { job_uuid: job.uuid, customer_uuid: made.body.data.uuid, due_date: '2027-01-31', custom_fields: { po: ' PO-7 ' } });
    expect(inv.body.data.custom_fields).toEqual({ po: 'PO-7' });
    expect((await rest(t, a).get(`/invoices/${inv.body.data.uuid}`)).body.data.custom_fields).toEqual({ po: 'PO-7' });
    const visit = await rest(t, a).post(`/jobs/${job.uuid}/visits`, { starts_at: '2027-01-05T09:00:00-05:00', ends_at: '2027-01-05T10:00:00-05:00' });
    expect(visit.body.data.custom_fields).toEqual({ gate: false });
  });

  it("a deleted definition's values are hidden and kept; restoring it shows them again; events carry custom_fields", async () => {
    const a = await createTenant(t);
    const def = (await rest(t, a).post('/custom_fields', { resource: 'customer', key: 'gate', label: 'Gate', type: 'text' })).body.data;
    const c = (await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B', custom_fields: { gate: '12' } })).body.data;
    expect((await rest(t, a).delete(`/custom_fields/${def.uuid}`)).status).toBe(200);
    expect((await rest(t, a).get(`/customers/${c.uuid}`)).body.data.custom_fields).toEqual({});
    expect((await rest(t, a).put(`/customers/${c.uuid}`, { custom_fields: { gate: '1' } })).body.error.details[0].field).toBe('custom_fields.gate');
    expect((await gql(t, a, `{ customer(uuid: "${c.uuid}") { customFields customFieldValues { key } } }`)).data.customer).toEqual({ customFields: {}, customFieldValues: [] });
    expect((await rest(t, a).post(`/custom_fields/${def.uuid}/restore`)).status).toBe(200);
    expect((await rest(t, a).get(`/customers/${c.uuid}`)).body.data.custom_fields).toEqual({ gate: '12' });
    const { events } = await readAll(t, a, undefined, 'types=customer.created,customer.updated');
    expect(events[0].data.object.custom_fields).toEqual({ gate: '12' });
    // The delete and the restore each changed what GET shows: an update with the previous values.
    expect(events.slice(1).map((e: any) => [e.data.object.custom_fields, e.data.previous.custom_fields])).toEqual([[{}, { gate: '12' }], [{ gate: '12' }, {}]]);
  });

  it("another company's definitions and values never show, on any surface", async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other' });
    await defineAll(a);
    const c = (await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B', custom_fields: { gate_code: 'secret' } })).body.data;
    expect((await rest(t, b).get('/custom_fields')).body.data.custom_fields).toEqual([]);
    expect((await gql(t, b, '{ customFields { items { key } } }')).data.customFields.items).toEqual([]);
    const def = (await rest(t, a).get('/custom_fields')).body.data.custom_fields[0];
    expect((await rest(t, b).get(`/custom_fields/${def.uuid}`)).status).toBe(404);
    expect((await rest(t, b).delete(`/custom_fields/${def.uuid}`)).status).toBe(404);
    const theirs = await rest(t, b).post('/customers', { first_name: 'B', last_name: 'B', custom_fields: { gate_code: 'x' } });
    expect(theirs.body.error.details[0].field).toBe('custom_fields.gate_code');
    const other = (await rest(t, b).post('/customers', { first_name: 'B', last_name: 'B' })).body.data;
    expect(other.custom_fields).toEqual({});
    expect((await gql(t, b, `{ customer(uuid: "${other.uuid}") { customFieldValues { key } } }`)).data.customer.customFieldValues).toEqual([]);
    expect((await rest(t, b).get(`/customers?cf.gate_code=secret`)).body.error?.details?.[0].field ?? null).toBe('cf.gate_code');
    expect((await rest(t, b).get(`/customers/${c.uuid}`)).status).toBe(404);
  });
});
