import { createTenant, rest, Tenant, useTestApp } from '../../helpers/app';
import { makeCustomer } from '../../helpers/billing';
import { csvOf, fileText, finished, uploadImport, useImportEngine } from '../../helpers/imports';
import { watchStatements } from '../../helpers/statements';
import { alwaysRowSavepoints } from '../../../src/modules/import/import.batch';
import { importBatchRows } from '../../../src/modules/import/import.run';

// An import batch's customers written by one multi-row insert (src/data/insert.ts PendingInserts,
// docs/import-export.md) against the plain path, a savepoint and an insert per row: the same
// records, events (in the same order, with the same actor), external ids, custom field values,
// kept counts, counts and errors per row, for a file whose bad rows are refused before writing,
// while written, and by the database at the batch's multi-row insert.

const t = useTestApp();
useImportEngine(t);

const COLUMNS = ['first_name', 'last_name', 'email', 'phone', 'customer_type', 'is_vip', 'company_name', 'notes', 'internal_flags', 'external_ids', 'tags', 'cf.gate_code', 'cf.tonnage', 'cf.units', 'primary_service_location_uuid'];
const FIELDS = [
  { resource: 'customer', key: 'gate_code', label: 'Gate code', type: 'text' },
  { resource: 'customer', key: 'tonnage', label: 'Tonnage', type: 'number' },
  { resource: 'customer', key: 'units', label: 'Units', type: 'multi_select', options: ['ac', 'heat'] },
  // Not in the file: its default applies to every created record.
  { resource: 'customer', key: 'region', label: 'Region', type: 'select', options: ['north', 'south'], default: 'north' },
];
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const LOCATION = 'LOCATION';

/** Row i of the file (file row i + 2); `LOCATION` in a cell becomes the company's location. */
function row(i: number, o: Partial<Record<string, string>> = {}): string[] {
  const base: Record<string, string> = {
    first_name: `First${i}`,
    last_name: `Last, ${i}`,
    email: `person${i}@example.com`,
    phone: `(217) 555-${String(i).padStart(4, '0')}`,
    customer_type: i % 3 ? 'Residential' : 'Commercial',
    is_vip: i % 7 ? 'false' : 'true',
    company_name: i % 5 ? '' : `Co "${i}"`,
    notes: i % 11 ? '' : `line one\nline two ${i}`,
    internal_flags: i % 13 ? '' : '{"gate":"1,2"}',
    external_ids: i % 2 ? '' : JSON.stringify({ crm: `C-${i}`, ...(i % 4 ? {} : { erp: `E-${i}` }) }),
    tags: i % 4 ? '' : 'north side, Priority',
    'cf.gate_code': i % 3 ? `G${i}` : '',
    'cf.tonnage': i % 2 ? String(i / 4) : '',
    'cf.units': i % 5 ? 'ac' : 'ac,heat',
    primary_service_location_uuid: i % 10 === 3 ? LOCATION : '',
  };
  return COLUMNS.map((c) => o[c] ?? base[c]);
}

interface Outcome {
  report: unknown;
  errors: unknown;
  customers: unknown;
  events: unknown;
  externalIds: unknown;
  kept: unknown;
  /** Statements that inserted customers: one per row (plain), or one per batch (`insert into "customers" (…) values (…), (…)`). */
  inserts: { multiRow: number; single: number };
}

/**
 * Imports `file` (`rows` then made into CSV) into a new company holding the custom fields, a
 * location and a customer with the external id crm C-HELD, in batches of 20 rows (or `batchRows`), by the plain path
 * or the batched one; everything it wrote, its ids replaced by names (customers by first name).
 */
async function outcome(plain: boolean, rows: string[][], options: Record<string, string>, batchRows = 20): Promise<Outcome> {
  const tenant = await createTenant(t, { name: plain ? 'Plain' : 'Batched' });
  for (const f of FIELDS) expect((await rest(t, tenant).post('/custom_fields', f)).status).toBe(200);
  const location = (await rest(t, tenant).post('/locations', { name: 'Main', address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' })).body.data;
  await makeCustomer(t, tenant, { first_name: 'Holder', last_name: 'Held', email: 'held@example.com', external_ids: { crm: 'C-HELD' } });
  const file = csvOf(COLUMNS, rows.map((r) => r.map((v) => (v === LOCATION ? location.uuid : v))));
  alwaysRowSavepoints(plain);
  importBatchRows(batchRows);
  const watch = watchStatements();
  let done: Record<string, any>;
  try {
    done = await finished(t, tenant, (await uploadImport(t, tenant, file, { resource: 'customers', ...options })).body.data.uuid);
  } finally {
    watch.stop();
    alwaysRowSavepoints(false);
    importBatchRows();
  }
  const inserts = { multiRow: watch.seen.filter((s) => s.startsWith('insert into "customers"')).length, single: watch.seen.filter((s) => /^with "actor" as .* insert into "customers"/s.test(s)).length };
  return { ...(await written(tenant, done, location.uuid)), inserts };
}

async function written(tenant: Tenant, done: Record<string, any>, locationUuid: string): Promise<Omit<Outcome, 'inserts'>> {
  const db = t.orm.em.fork().getConnection();
  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = [tenant.companyUuid]) => db.execute<T[]>(sql, params);
  const customers = await q<{ uuid: string; first_name: string; r: Record<string, unknown> }>(
    `select uuid, first_name, to_jsonb(c) - 'search_text' as r from customers c where company_uuid = ? order by first_name`,
  );
  const [caller] = await q<{ key_id: string; user_id: string; request_id: string }>(`select caller->>'key_id' as key_id, caller->>'user_id' as user_id, caller->>'request_id' as request_id from imports where uuid = ?`, [done.uuid]);
  const names = new Map<string, string>([
    [tenant.companyUuid, 'COMPANY'],
    [locationUuid, LOCATION],
    [caller.key_id, 'KEY'],
    [caller.user_id, 'USER'],
    [caller.request_id, 'REQUEST'],
    [done.uuid, 'IMPORT'],
    ...customers.map((c) => [c.uuid, `customer ${c.first_name}`] as [string, string]),
  ]);
  const events = await q(`select type, resource, record_uuid, actor, row, previous from events where company_uuid = ? and resource = 'customer' order by id`);
  const externalIds = await q(`select resource, source, external_id, record_uuid from external_ids where company_uuid = ? order by resource, source, external_id`);
  const kept = await q(`select sum(live)::int as live, sum(all_rows)::int as all_rows, sum(changes)::int as changes from kept_counts where company_uuid = ? and table_name = 'customers'`);
  const errors = JSON.parse((await fileText(rest(t, tenant).get(`/imports/${done.uuid}/errors`))).body).data.errors;
  const report = { status: done.status, rows_done: done.rows_done, created: done.created, updated: done.updated, unchanged: done.unchanged, failed: done.failed };
  // Ids by name; the instants a write takes from the clock left out.
  const named = (v: unknown) =>
    JSON.parse(JSON.stringify(v, (k, x: unknown) => (['created_at', 'updated_at', 'createdAt', 'updatedAt'].includes(k) ? undefined : x)).replace(UUID, (u) => names.get(u) ?? 'ANOTHER UUID'));
  return named({ report, errors, customers: customers.map((c) => c.r), events, externalIds, kept });
}

const expectSame = (batched: Outcome, plain: Outcome) => {
  const { inserts: _b, ...b } = batched;
  const { inserts: _p, ...p } = plain;
  expect(b).toEqual(p);
};

describe('an import batch written by one multi-row insert', () => {
  it('create mode: the same records, events, external ids, custom fields, kept counts and errors per row as a savepoint and an insert per row', async () => {
    const rows = Array.from({ length: 80 }, (_, i) => {
      switch (i) {
        // Batch 2 (rows 20–39): refused by the validation before anything is written, by the custom
        // field's type while written, and a location that is not the company's while written.
        case 24:
          return row(i, { email: 'not-an-email' });
        case 27:
          return row(i, { 'cf.tonnage': 'lots' });
        case 33:
          return row(i, { primary_service_location_uuid: '0b0a3d3e-0c1f-4d4b-9a59-1f1f1f1f1f1f' });
        // Batch 3 (rows 40–59): refused by the database at the batch's insert: an external id twice
        // in the batch, one another customer holds; and a validation refusal.
        case 41:
          return row(i, { first_name: '' });
        case 45:
          return row(i, { external_ids: '{"crm":"C-TWICE"}' });
        case 52:
          return row(i, { external_ids: '{"crm":"C-TWICE"}' });
        case 56:
          return row(i, { external_ids: '{"crm":"C-HELD"}' });
        default:
          return row(i);
      }
    });
    const batched = await outcome(false, rows, {});
    const plain = await outcome(true, rows, {});
    expect(batched.report).toEqual({ status: 'succeeded', rows_done: 80, created: 74, updated: 0, unchanged: 0, failed: 6 });
    expect((batched.errors as Array<{ row: number; field: string }>).map((e) => [e.row, e.field])).toEqual([
      [26, 'email'],
      [29, 'custom_fields.tonnage'],
      [35, 'primary_service_location_uuid'],
      [43, 'first_name'],
      [54, 'external_ids.crm'],
      [58, 'external_ids.crm'],
    ]);
    expectSame(batched, plain);
    // Batches 1 and 4 in one insert each, and batch 3's, refused; batches 2 and 3 then row by row
    // (an insert sent for each row that reaches it: 17 and 19).
    expect(batched.inserts).toEqual({ multiRow: 3, single: 17 + 19 });
    expect(plain.inserts).toEqual({ multiRow: 0, single: 20 + 17 + 19 + 20 });
  });

  it('upsert by email: rows that update records found, and records made earlier in the same batch, between rows that create', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => {
      switch (i) {
        // Batch 1 (rows 0–19): the customer held before the import, changed twice; a record made
        // by row 1 of this batch, changed twice.
        case 3:
        case 12:
          return row(i, { email: 'held@example.com', first_name: 'Holder', last_name: 'Renamed', external_ids: '' });
        case 6:
        case 9:
          return row(1, { first_name: 'First1', last_name: 'Changed' });
        // Batch 2 (rows 20–29): a record batch 1 made, changed; a row the validation refuses.
        case 22:
          return row(2, { is_vip: 'true', 'cf.gate_code': 'NEW' });
        case 25:
          return row(i, { email: 'not-an-email' });
        default:
          return row(i);
      }
    });
    const options = { mode: 'upsert', match_on: 'email' };
    const batched = await outcome(false, rows, options);
    const plain = await outcome(true, rows, options);
    expect(batched.report).toEqual({ status: 'succeeded', rows_done: 30, created: 24, updated: 5, unchanged: 0, failed: 1 });
    expectSame(batched, plain);
    // Each row that updates first writes the records waiting before it: batch 1 in five inserts,
    // batch 2 in two, none row by row.
    expect(batched.inserts).toEqual({ multiRow: 7, single: 0 });
  });

  it("a batch with more values than a statement takes: two inserts, the same rows", async () => {
    // 3,000 rows of a customer's ~27 columns: past PostgreSQL's 65,535 parameters of one statement.
    const rows = Array.from({ length: 3000 }, (_, i) => row(i));
    const batched = await outcome(false, rows, {}, 3000);
    const plain = await outcome(true, rows, {}, 3000);
    expect(batched.report).toEqual({ status: 'succeeded', rows_done: 3000, created: 3000, updated: 0, unchanged: 0, failed: 0 });
    expectSame(batched, plain);
    expect(batched.inserts).toEqual({ multiRow: 2, single: 0 });
  }, 120_000);
});
