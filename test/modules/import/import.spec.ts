import { parse } from 'csv-parse/sync';
import { randomUUID } from 'node:crypto';
import { createTenant, rest, Tenant, useTestApp } from '../../helpers/app';
import { csvOf, CUSTOMER_COLUMNS, customerRow, fileText, finished, uploadImport, useImportEngine } from '../../helpers/imports';

// Imports (docs/import-export.md): a 10,000-row customer file with 37 bad rows of every kind, the
// fixed error file imported again, and the whole file in upsert mode changing nothing.

const t = useTestApp();
useImportEngine(t);

/** Each kind of bad row: what to write into a good row, and the field its error names. */
const BAD: Array<{ field: string; spoil: (row: string[]) => string[] }> = [
  { field: 'first_name', spoil: (r) => set(r, 'first_name', '') },
  { field: 'last_name', spoil: (r) => set(r, 'last_name', '  ') },
  { field: 'email', spoil: (r) => set(r, 'email', 'not-an-email') },
  { field: 'phone', spoil: (r) => set(r, 'phone', '12345') },
  { field: 'customer_type', spoil: (r) => set(r, 'customer_type', 'Industrial') },
  { field: 'is_vip', spoil: (r) => set(r, 'is_vip', 'maybe') },
  { field: 'internal_flags', spoil: (r) => set(r, 'internal_flags', '{not json') },
  { field: 'primary_service_location_uuid', spoil: (r) => set(r, 'primary_service_location_uuid', 'nope') },
  { field: 'primary_service_location_uuid', spoil: (r) => set(r, 'primary_service_location_uuid', randomUUID()) },
  { field: 'on_my_way_notify_via', spoil: (r) => set(r, 'on_my_way_notify_via', 'pigeon') },
  { field: 'first_name', spoil: (r) => set(r, 'first_name', 'x'.repeat(300)) },
  { field: 'row', spoil: (r) => [...r, 'one value too many'] },
];

function set(row: string[], column: string, value: string): string[] {
  const out = [...row];
  out[CUSTOMER_COLUMNS.indexOf(column)] = value;
  return out;
}

const N = Number(process.env.IMPORT_TEST_ROWS ?? 10_000);
const badAt = new Map(Array.from({ length: 37 }, (_, k) => [(k * 269 + 5) % N, BAD[k % BAD.length]] as const));

async function count(tenant: Tenant): Promise<number> {
  return (await rest(t, tenant).get('/customers?limit=1')).body.data.pagination.total;
}

it('10,000 rows with 37 bad ones: 9,963 created and 37 in the error file; the fixed file adds 37; upsert of the whole file changes nothing', async () => {
  const a = await createTenant(t);
  const rows = Array.from({ length: N }, (_, i) => (badAt.has(i) ? badAt.get(i)!.spoil(customerRow(i)) : customerRow(i)));
  const res = await uploadImport(t, a, '\uFEFF' + csvOf(CUSTOMER_COLUMNS, rows), { resource: 'customers' });
  expect(res.status).toBe(202);
  expect(res.body.data).toMatchObject({ status: 'queued', rows_total: N, resource: 'customers', mode: 'create' });
  const first = await finished(t, a, res.body.data.uuid);
  // The errors as JSON: each with its row (the header is row 1), field and message.
  const json = await fileText(rest(t, a).get(`/imports/${first.uuid}/errors?format=json`));
  const errors = JSON.parse(json.body).data.errors as Array<{ row: number; field: string; message: string; values: Record<string, string> }>;
  const byRow = new Map(errors.map((e) => [e.row, e]));
  const wrong: string[] = [];
  for (const [i, bad] of badAt) {
    const e = byRow.get(i + 2);
    if (!e || e.field !== bad.field || !e.message) wrong.push(`row ${i + 2}: ${JSON.stringify(e)} (expected ${bad.field})`);
  }
  expect(wrong).toEqual([]);
  expect(first).toMatchObject({ status: 'succeeded', rows_total: N, rows_done: N, created: N - 37, updated: 0, unchanged: 0, failed: 37 });
  expect(await count(a)).toBe(N - 37);

  expect(new Set(errors.map((e) => e.row)).size).toBe(37);
  expect(byRow.get([...badAt.keys()][2] + 2)!.values.email).toBe('not-an-email');

  // The CSV error file: fixed and imported again.
  const file = await fileText(rest(t, a).get(`/imports/${first.uuid}/errors?format=csv`));
  expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
  const report = parse(file.body, { columns: true }) as Array<Record<string, string>>;
  expect(report).toHaveLength(37);
  expect(Object.keys(report[0])).toEqual(['error_row', 'error_field', 'error_message', ...CUSTOMER_COLUMNS]);
  const fixed = report.map((r) => {
    const i = Number(r.error_row) - 2;
    return [r.error_row, r.error_field, r.error_message, ...customerRow(i)];
  });
  const again = await uploadImport(t, a, csvOf(Object.keys(report[0]), fixed), { resource: 'customers', mode: 'upsert', match_on: 'email' });
  expect(again.status).toBe(202);
  expect(await finished(t, a, again.body.data.uuid)).toMatchObject({ status: 'succeeded', created: 37, updated: 0, unchanged: 0, failed: 0 });
  expect(await count(a)).toBe(N);

  // The whole (fixed) file in upsert mode: nothing to change.
  const whole = await uploadImport(t, a, csvOf(CUSTOMER_COLUMNS, Array.from({ length: N }, (_, i) => customerRow(i))), { resource: 'customers', mode: 'upsert', match_on: 'email' });
  expect(await finished(t, a, whole.body.data.uuid)).toMatchObject({ status: 'succeeded', created: 0, updated: 0, unchanged: N, failed: 0 });
  expect(await count(a)).toBe(N);
  const emails = await t.orm.em.getConnection().execute<{ n: string; d: string }[]>(`select count(*) as n, count(distinct email) as d from customers where company_uuid = ?`, [a.companyUuid]);
  expect(emails[0]).toEqual({ n: String(N), d: String(N) });
  if (process.env.IMPORT_TIMING) console.log(await t.orm.em.getConnection().execute(`select mode, rows_total, created, unchanged, extract(epoch from finished_at - started_at) as secs from imports order by created_at`));
}, 1_800_000);
