import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { createTenant, gql, rest, Tenant, TestApp, useTestApp } from '../../helpers/app';
import { makeCustomer, makeJob } from '../../helpers/billing';
import { csvOf, CUSTOMER_COLUMNS, customerRow, fileText, finished, ndjson, uploadImport, useImportEngine } from '../../helpers/imports';
import { userWithKey } from '../../helpers/technicians';
import { createKey } from '../../../src/modules/company/company.admin';
import { UserRole } from '../../../src/modules/user/user.entity';
import { alwaysRowSavepoints } from '../../../src/modules/import/import.batch';
import { importBatchRows } from '../../../src/modules/import/import.run';

// Imports (docs/import-export.md): dry_run, all_or_nothing, cancel, the other resources, the
// file's forms, both surfaces, tenancy and roles, and an export imported into another company.

const t = useTestApp();
useImportEngine(t);

const rows = (n: number, from = 0) => Array.from({ length: n }, (_, i) => customerRow(from + i));
const total = async (tenant: Tenant, plural = 'customers') => (await rest(t, tenant).get(`/${plural}?limit=1`)).body.data.pagination.total as number;
const events = async (tenant: Tenant) => (await t.orm.em.getConnection().execute<{ n: string }[]>(`select count(*) as n from events where company_uuid = ? and type = 'customer.created'`, [tenant.companyUuid]))[0].n;

describe('imports', () => {
  it('all_or_nothing with one bad row writes nothing; dry_run writes nothing and reports what a run would', async () => {
    const a = await createTenant(t);
    const file = csvOf(CUSTOMER_COLUMNS, [...rows(30), ['', 'NoFirst', 'x@example.com', '', '', '', '', '', '', '', '']]);
    const atomic = await uploadImport(t, a, file, { resource: 'customers', all_or_nothing: true });
    const done = await finished(t, a, atomic.body.data.uuid);
    expect(done).toMatchObject({ status: 'failed', all_or_nothing: true, created: 0, updated: 0, failed: 1, rows_done: 31 });
    expect(done.message).toMatch(/nothing was written/);
    expect(await total(a)).toBe(0);
    expect(await events(a)).toBe('0');
    const errors = JSON.parse((await fileText(rest(t, a).get(`/imports/${done.uuid}/errors`))).body).data.errors;
    expect(errors).toEqual([{ row: 32, field: 'first_name', message: expect.stringContaining('first_name'), values: expect.objectContaining({ last_name: 'NoFirst' }) }]);

    const dry = await finished(t, a, (await uploadImport(t, a, file, { resource: 'customers', dry_run: 'true' })).body.data.uuid);
    expect(await total(a)).toBe(0);
    const real = await finished(t, a, (await uploadImport(t, a, file, { resource: 'customers' })).body.data.uuid);
    // The same report as the run that writes.
    const report = (x: Record<string, unknown>) => ({ created: x.created, updated: x.updated, unchanged: x.unchanged, failed: x.failed, rows_done: x.rows_done, status: x.status });
    expect(report(dry)).toEqual(report(real));
    expect(report(real)).toEqual({ created: 30, updated: 0, unchanged: 0, failed: 1, rows_done: 31, status: 'succeeded' });
    expect(await total(a)).toBe(30);
    // Each row written is an event of its own, with the uploading key as actor.
    expect(await events(a)).toBe('30');
    const [actor] = await t.orm.em.getConnection().execute<{ type: string }[]>(`select actor->>'type' as type from events where company_uuid = ? and type = 'customer.created' limit 1`, [a.companyUuid]);
    expect(actor.type).toBe('api_key');
  });

  it('a batch written without row savepoints gives the same records, counts and errors as one with a savepoint per row', async () => {
    // Batches 1 and 3 clean (the fast path); batch 2 with rows the validation refuses (left out
    // before writing), a repeated email, and a reference to no location (refused while written:
    // the batch is written again with savepoints).
    const nowhere = (r: string[]) => r.map((v, k) => (CUSTOMER_COLUMNS[k] === 'primary_service_location_uuid' ? '0b0a3d3e-0c1f-4d4b-9a59-1f1f1f1f1f1f' : v));
    // Batches of 20 rows: the same three batches as 1,200 rows make in batches of IMPORT_BATCH.
    const file = rows(60).map((r, i) => (i === 24 ? [...r.slice(0, 2), 'bad-email', ...r.slice(3)] : i === 28 ? ['', ...r.slice(1)] : i === 32 ? ['Changed', ...customerRow(26).slice(1)] : i === 36 ? nowhere(r) : r));
    const outcome = async (plain: boolean) => {
      const tenant = await createTenant(t, { name: plain ? 'Plain' : 'Fast' });
      alwaysRowSavepoints(plain);
      importBatchRows(20);
      try {
        const done = await finished(t, tenant, (await uploadImport(t, tenant, csvOf(CUSTOMER_COLUMNS, file), { resource: 'customers', mode: 'upsert', match_on: 'email' })).body.data.uuid);
        const errors = JSON.parse((await fileText(rest(t, tenant).get(`/imports/${done.uuid}/errors`))).body).data.errors;
        const records = ndjson((await fileText(rest(t, tenant).get('/customers/export?format=ndjson&sort=email'))).body).map(({ uuid: _u, created_at: _c, updated_at: _up, ...r }) => r);
        return { counts: [done.created, done.updated, done.unchanged, done.failed], errors, records, events: await events(tenant) };
      } finally {
        alwaysRowSavepoints(false);
        importBatchRows();
      }
    };
    const fast = await outcome(false);
    const plain = await outcome(true);
    expect(fast.counts).toEqual([56, 1, 0, 3]);
    expect(fast.errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual([[26, 'email'], [30, 'first_name'], [38, 'primary_service_location_uuid']]);
    expect(fast).toEqual(plain);
  });

  it('upsert by uuid updates the matched record, counts the unchanged one and refuses an unknown uuid', async () => {
    const a = await createTenant(t);
    const c1 = await makeCustomer(t, a, { first_name: 'One', last_name: 'A', email: 'one@example.com' });
    const c2 = await makeCustomer(t, a, { first_name: 'Two', last_name: 'B', email: 'two@example.com' });
    const file = csvOf(['uuid', 'first_name', 'last_name', 'is_vip'], [
      [c1.uuid, 'Uno', 'A', 'true'],
      [c2.uuid, 'Two', 'B', 'false'],
      ['', 'New', 'C', ''],
      ['7b0a3d3e-0c1f-4d4b-9a59-1f1f1f1f1f1f', 'Ghost', 'D', ''],
    ]);
    const done = await finished(t, a, (await uploadImport(t, a, file, { resource: 'customers', mode: 'upsert', match_on: 'uuid' })).body.data.uuid);
    expect(done).toMatchObject({ status: 'succeeded', created: 1, updated: 1, unchanged: 1, failed: 1 });
    expect((await rest(t, a).get(`/customers/${c1.uuid}`)).body.data).toMatchObject({ first_name: 'Uno', is_vip: true });
    const errors = JSON.parse((await fileText(rest(t, a).get(`/imports/${done.uuid}/errors?format=json`))).body).data.errors;
    expect(errors).toEqual([expect.objectContaining({ row: 5, field: 'uuid', message: 'uuid does not match any customer of this company' })]);
  });

  it('writes custom fields as cf.<key> columns, which an import into another company reads back', async () => {
    const defs = [
      { resource: 'customer', key: 'gate_code', label: 'Gate code', type: 'text' },
      { resource: 'customer', key: 'tonnage', label: 'Tonnage', type: 'number' },
      { resource: 'customer', key: 'units', label: 'Units', type: 'multi_select', options: ['ac', 'heat'] },
    ];
    const [a, b] = [await createTenant(t), await createTenant(t, { name: 'Other' })];
    for (const tenant of [a, b]) for (const d of defs) expect((await rest(t, tenant).post('/custom_fields', d)).status).toBe(200);
    await makeCustomer(t, a, { first_name: 'Gated', last_name: 'One', custom_fields: { gate_code: '4411', tonnage: 2.5, units: ['ac', 'heat'] } });
    const res = await fileText(rest(t, a).get('/customers/export?format=csv'));
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(rows[0]).toMatchObject({ 'cf.gate_code': '4411', 'cf.tonnage': '2.5', 'cf.units': '["ac","heat"]' });
    expect(Object.keys(rows[0])).not.toContain('custom_fields');
    const done = await finished(t, b, (await uploadImport(t, b, res.body, { resource: 'customers' })).body.data.uuid);
    expect(done).toMatchObject({ status: 'succeeded', created: 1, failed: 0 });
    const copied = (await rest(t, b).get('/customers')).body.data.customers[0];
    expect(copied.custom_fields).toEqual({ gate_code: '4411', tonnage: 2.5, units: ['ac', 'heat'] });
  });

  it('upsert by external_id:<source> matches the id in that system, and a new id makes a record carrying it', async () => {
    const a = await createTenant(t);
    const known = await makeCustomer(t, a, { first_name: 'Known', last_name: 'A', external_ids: { crm: 'C-1' } });
    const file = csvOf(['external_ids', 'first_name', 'last_name'], [
      ['{"crm":"C-1"}', 'Renamed', 'A'],
      ['{"crm":"C-2"}', 'New', 'B'],
      ['{"other":"X"}', 'NoKey', 'C'],
      ['not json', 'Bad', 'D'],
    ]);
    const done = await finished(t, a, (await uploadImport(t, a, file, { resource: 'customers', mode: 'upsert', match_on: 'external_id:crm' })).body.data.uuid);
    expect(done).toMatchObject({ status: 'succeeded', created: 2, updated: 1, failed: 1 });
    expect((await rest(t, a).get(`/customers/${known.uuid}`)).body.data).toMatchObject({ first_name: 'Renamed' });
    expect((await rest(t, a).get('/customers/by_external_id/crm/C-2')).body.data).toMatchObject({ first_name: 'New' });
    // The same file again changes nothing it matched.
    const again = await finished(t, a, (await uploadImport(t, a, file, { resource: 'customers', mode: 'upsert', match_on: 'external_id:crm' })).body.data.uuid);
    expect(again).toMatchObject({ updated: 0, unchanged: 2 });
    const noSource = await uploadImport(t, a, file, { resource: 'customers', mode: 'upsert', match_on: 'external_id' });
    expect(noSource.status).toBe(400);
  });

  it('NDJSON, a semicolon file with a BOM and quoted newlines, and a mapping of other column names', async () => {
    const a = await createTenant(t);
    const lines = [JSON.stringify({ first_name: 'Nd', last_name: 'Json', is_vip: true, internal_flags: { a: 1 } }), '', JSON.stringify({ first_name: 'Bad', bogus: 1 }), '[1]'].join('\n');
    const nd = await finished(t, a, (await uploadImport(t, a, lines, { resource: 'customers' }, 'people.ndjson')).body.data.uuid);
    expect(nd).toMatchObject({ created: 1, failed: 2, rows_total: 3 });
    const semi = '\uFEFFVorname;Nachname;Notiz\r\n"Jörg";"Müller; Sohn";"erste\nzweite"\r\n';
    const mapped = await uploadImport(t, a, semi, { resource: 'customers', mapping: JSON.stringify({ Vorname: 'first_name', Nachname: 'last_name', Notiz: 'notes' }) });
    expect(await finished(t, a, mapped.body.data.uuid)).toMatchObject({ created: 1, failed: 0 });
    const list = (await rest(t, a).get('/customers?search=Jörg')).body.data.customers;
    expect(list[0]).toMatchObject({ first_name: 'Jörg', last_name: 'Müller; Sohn', notes: 'erste\nzweite' });
    // A column that is no field: 400 before anything is stored.
    const bad = await uploadImport(t, a, 'first_name,last_name,shoe_size\nA,B,9\n', { resource: 'customers' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]).toMatchObject({ field: 'file', message: expect.stringContaining('shoe_size') });
    const noMatch = await uploadImport(t, a, 'name\nx\n', { resource: 'locations', mode: 'upsert', match_on: 'email' });
    expect(noMatch.status).toBe(400);
    expect(noMatch.body.error.details[0].field).toBe('match_on');
    const noFile = await request(t.app).post('/api/v1/imports').set('Authorization', `Bearer ${a.key}`).field('resource', 'customers');
    expect(noFile.status).toBe(400);
    expect(noFile.body.error.details[0].field).toBe('file');
  });

  it('a character whose bytes fall on both sides of a stored piece of the file is read whole, in NDJSON and in CSV', async () => {
    const a = await createTenant(t);
    // Names of three-byte characters, and a padding that puts the 65,536th byte inside one of them.
    const name = (i: number) => `山田${'太郎'.repeat(20)}${i}`;
    const of = (pad: string, line: (i: number) => string) => Array.from({ length: 600 }, (_, i) => line(i)).join('\n').replace('PAD', pad);
    const split = (text: string) => Buffer.from(text).subarray(0, 65536).toString().endsWith('\uFFFD');
    const files = {
      ndjson: (pad: string) => of(pad, (i) => JSON.stringify({ first_name: name(i), last_name: i ? 'N' : 'PAD' })),
      csv: (pad: string) => `first_name,last_name\n${of(pad, (i) => `${name(i)},${i ? 'C' : 'PAD'}`)}`,
    };
    for (const [format, file] of Object.entries(files)) {
      let pad = 'P';
      while (!split(file(pad))) pad += 'x';
      const done = await finished(t, a, (await uploadImport(t, a, file(pad), { resource: 'customers' }, `people.${format}`)).body.data.uuid);
      expect([format, done.created, done.failed]).toEqual([format, 600, 0]);
    }
    const names = ndjson((await fileText(rest(t, a).get('/customers/export?format=ndjson'))).body).map((c) => c.first_name as string);
    const wanted = Array.from({ length: 600 }, (_, i) => name(i));
    expect(names.filter((n) => !wanted.includes(n))).toEqual([]);
  });

  it('locations, jobs, invoices and payments, each through its own create rules', async () => {
    const a = await createTenant(t);
    const loc = await finished(t, a, (await uploadImport(t, a, csvOf(['name', 'address1', 'city', 'state', 'zip'], [['North', '1 Main St', 'Springfield', 'il', '62701'], ['South', '2 Main St', 'Springfield', 'ZZ', '62701']]), { resource: 'locations' })).body.data.uuid);
    expect(loc).toMatchObject({ created: 1, failed: 1 });
    const customer = await makeCustomer(t, a);
    const jobs = await finished(t, a, (await uploadImport(t, a, csvOf(['customer_uuid', 'title', 'estimated_amount'], [[customer.uuid, 'Boiler', '120.50'], [customer.uuid, 'Bad amount', '-3']]), { resource: 'jobs' })).body.data.uuid);
    expect(jobs).toMatchObject({ created: 1, failed: 1 });
    const job = (await rest(t, a).get('/jobs')).body.data.jobs[0];
    expect(job).toMatchObject({ title: 'Boiler', estimated_amount: 120.5 });
    const lines = JSON.stringify([{ description: 'Work', quantity: 2, unit_price: 50 }]);
    const inv = await finished(t, a, (await uploadImport(t, a, csvOf(['job_uuid', 'customer_uuid', 'due_date', 'line_items'], [[job.uuid, customer.uuid, '2099-12-31', lines]]), { resource: 'invoices' })).body.data.uuid);
    expect(inv).toMatchObject({ created: 1, failed: 0 });
    const invoice = (await rest(t, a).get('/invoices')).body.data.invoices[0];
    expect(invoice.total_amount).toBe(100);
    const pays = await finished(t, a, (await uploadImport(t, a, csvOf(['invoice_uuid', 'payment_type', 'amount', 'payment_date'], [[invoice.uuid, 'cash', '40', '2026-11-21'], [invoice.uuid, 'cash', '900', '2026-11-21']]), { resource: 'payments' })).body.data.uuid);
    // The second payment would take the invoice above its total: refused as POST /payments refuses it.
    expect(pays).toMatchObject({ created: 1, failed: 1 });
    expect((await rest(t, a).get(`/invoices/${invoice.uuid}`)).body.data.balance_amount).toBe(60);
  });

  it('cancel stops a queued import; a finished one cannot be cancelled', async () => {
    const a = await createTenant(t);
    const up = await uploadImport(t, a, csvOf(CUSTOMER_COLUMNS, rows(3)), { resource: 'customers' });
    const cancelled = await rest(t, a).post(`/imports/${up.body.data.uuid}/cancel`);
    // The engine may have taken it already: cancelled either way, or finished first.
    if (cancelled.status === 200) {
      expect(cancelled.body.data.status).toBe('cancelled');
      const after = await finished(t, a, up.body.data.uuid);
      expect(after.status).toBe('cancelled');
    }
    const done = await finished(t, a, up.body.data.uuid);
    const again = await rest(t, a).post(`/imports/${done.uuid}/cancel`);
    expect(again.status).toBe(400);
    expect(again.body.error.details[0].field).toBe('uuid');
  });

  it('GraphQL: createImport (multipart), import, imports and cancelImport, the same service', async () => {
    const a = await createTenant(t);
    const res = await gqlUpload(t, a, 'mutation($file: Upload!) { createImport(file: $file, resource: CUSTOMERS, mode: UPSERT, matchOn: "email") { uuid status rowsTotal resource mode matchOn } }', csvOf(CUSTOMER_COLUMNS, rows(4)));
    expect(res.body.errors).toBeUndefined();
    const created = res.body.data.createImport;
    expect(created).toMatchObject({ status: 'QUEUED', rowsTotal: 4, resource: 'CUSTOMERS', mode: 'UPSERT', matchOn: 'email' });
    await finished(t, a, created.uuid);
    const one = await gql(t, a, 'query($u: UUID!) { import(uuid: $u) { uuid status created failed } imports { items { uuid } pagination { total } } }', { u: created.uuid });
    expect(one.data.import).toEqual({ uuid: created.uuid, status: 'SUCCEEDED', created: 4, failed: 0 });
    expect(one.data.imports).toEqual({ items: [{ uuid: created.uuid }], pagination: { total: 1 } });
    const cancel = await gql(t, a, 'mutation($u: UUID!) { cancelImport(uuid: $u) { status } }', { u: created.uuid });
    expect(cancel.errors![0].extensions.code).toBe('VALIDATION_ERROR');
    const bad = await gqlUpload(t, a, 'mutation($file: Upload!) { createImport(file: $file, resource: LOCATIONS, mode: UPSERT, matchOn: "email") { uuid } }', 'name\nx\n');
    expect(bad.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
  });

  it("another company's import is not found; a technician, or a key without the resource's write scope, is refused", async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other Co' });
    const up = await uploadImport(t, a, csvOf(CUSTOMER_COLUMNS, rows(2)), { resource: 'customers' });
    await finished(t, a, up.body.data.uuid);
    for (const path of [`/imports/${up.body.data.uuid}`, `/imports/${up.body.data.uuid}/errors`]) expect((await rest(t, b).get(path)).status).toBe(404);
    expect((await rest(t, b).post(`/imports/${up.body.data.uuid}/cancel`)).status).toBe(404);
    expect((await rest(t, b).get('/imports')).body.data.imports).toEqual([]);
    expect((await gql(t, b, 'query($u: UUID!) { import(uuid: $u) { uuid } }', { u: up.body.data.uuid })).errors![0].extensions.code).toBe('NOT_FOUND');
    const tech = await userWithKey(t, a, UserRole.TECHNICIAN);
    const denied = await uploadImport(t, tech, 'first_name,last_name\nA,B\n', { resource: 'customers' });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('PERMISSION_DENIED');
    expect((await rest(t, tech).get('/imports')).status).toBe(403);
    const { apiKey } = await createKey(t.orm.em.fork(), { companyUuid: a.companyUuid, userId: a.userId, scopes: ['imports:write'] });
    const narrow = await uploadImport(t, { ...a, key: apiKey }, 'first_name,last_name\nA,B\n', { resource: 'customers' });
    expect(narrow.status).toBe(403);
    expect(narrow.body.error.message).toContain('customers:write');
  });

  it('an export imported into another company and exported again: the same rows, ids aside', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other Co' });
    for (const o of [
      { first_name: 'Zoë, "Zed"', last_name: 'Ünal', notes: 'line one\nline two, "quoted"', email: 'zoe@example.com' },
      { first_name: '山田', last_name: '太郎', company_name: 'Ацме ООО', email: null, phone: null, customer_type: 'Commercial' },
      { first_name: 'Plain', last_name: 'Person', internal_flags: { gate: 'code 1,2' }, is_vip: true, email: 'p@example.com', on_my_way_notify_via: 'sms' },
    ]) await makeCustomer(t, a, o);
    await makeJob(t, a);
    const first = (await fileText(rest(t, a).get('/customers/export?format=csv'))).body;
    const up = await uploadImport(t, b, first, { resource: 'customers' }, 'customers.csv');
    expect(up.status).toBe(202);
    expect(await finished(t, b, up.body.data.uuid)).toMatchObject({ status: 'succeeded', created: 4, failed: 0 });
    const second = (await fileText(rest(t, b).get('/customers/export?format=csv&sort=last_name'))).body;
    const again = (await fileText(rest(t, a).get('/customers/export?format=csv&sort=last_name'))).body;
    const IDS = new Set(['uuid', 'created_at', 'updated_at']);
    const strip = (csv: string) => (parse(csv, { columns: true }) as Array<Record<string, string>>).map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !IDS.has(k))));
    expect(strip(second)).toEqual(strip(again));
    expect(strip(second).find((r) => r.last_name === 'Ünal')!.notes).toBe('line one\nline two, "quoted"');
    expect(ndjson((await fileText(rest(t, b).get('/customers/export?format=ndjson'))).body)).toHaveLength(4);
  });
});

function gqlUpload(t: TestApp, a: Tenant, query: string, file: string) {
  return request(t.app)
    .post('/graphql')
    .set('Authorization', `Bearer ${a.key}`)
    .set('apollo-require-preflight', 'true')
    .field('operations', JSON.stringify({ query, variables: { file: null } }))
    .field('map', JSON.stringify({ 0: ['variables.file'] }))
    .attach('0', Buffer.from(file, 'utf8'), 'data.csv');
}
