import { parse } from 'csv-parse/sync';
import { createTenant, rest, useTestApp } from '../../helpers/app';
import { technicianWorld } from '../../helpers/technicians';
import { makeCustomer } from '../../helpers/billing';
import { fileText, ndjson } from '../../helpers/imports';
import { EXPORT_BATCH } from '../../../src/modules/export/export.service';

// Exports (docs/import-export.md): every record of a list, its filters and scope, as CSV or NDJSON.

describe('GET /api/v1/<plural>/export', () => {
  const t = useTestApp();

  it('writes every customer as RFC 4180 CSV with the list header, quoting commas, quotes, newlines and non-Latin names', async () => {
    const a = await createTenant(t);
    const names = [
      { first_name: 'Zoë, "Zed"', last_name: 'Ünal', notes: 'line one\nline two, "quoted"' },
      { first_name: '山田', last_name: '太郎', company_name: 'Ацме ООО' },
      { first_name: 'Plain', last_name: 'Person', internal_flags: { gate: 'code 1,2' }, is_vip: true, email: null },
      { first_name: 'Lena', last_name: 'Lines', notes: 'gate code\nback door' },
    ];
    for (const n of names) await makeCustomer(t, a, n);
    const res = await fileText(rest(t, a).get('/customers/export?format=csv'));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="customers-\d{4}-\d{2}-\d{2}\.csv"$/);
    const list = (await rest(t, a).get('/customers?limit=100')).body.data.customers;
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    // The list's fields, custom fields as one cf.<key> column each (this company defines none).
    expect(Object.keys(rows[0])).toEqual(Object.keys(list[0]).filter((k) => k !== 'custom_fields'));
    expect(rows.map((r) => r.uuid)).toEqual(list.map((c: { uuid: string }) => c.uuid));
    const zoe = rows.find((r) => r.last_name === 'Ünal')!;
    expect(zoe.first_name).toBe('Zoë, "Zed"');
    expect(zoe.notes).toBe('line one\nline two, "quoted"');
    expect(rows.find((r) => r.first_name === '山田')!.company_name).toBe('Ацме ООО');
    const plain = rows.find((r) => r.first_name === 'Plain')!;
    expect(JSON.parse(plain.internal_flags)).toEqual({ gate: 'code 1,2' });
    expect(plain.is_vip).toBe('true');
    expect(plain.email).toBe('');
    // RFC 4180: CRLF between records, a quoted newline kept inside its field (a bare LF too, with
    // no comma or quote beside it, which a reader that also ends records at LF would split on).
    expect((res.body).split('\r\n')[0]).toBe(Object.keys(list[0]).filter((k) => k !== 'custom_fields').join(','));
    expect(res.body).toContain(',"gate code\nback door",');
    const lenient = parse(res.body, { columns: true, record_delimiter: ['\r\n', '\n'] }) as Record<string, string>[];
    expect(lenient.find((r) => r.last_name === 'Lines')!.notes).toBe('gate code\nback door');
  });

  it('NDJSON: each line the record as the list writes it; filters, sort and include_deleted apply', async () => {
    const a = await createTenant(t);
    const vip = await makeCustomer(t, a, { first_name: 'Vera', last_name: 'Vip', is_vip: true });
    await makeCustomer(t, a, { first_name: 'Norm', last_name: 'Al' });
    const gone = await makeCustomer(t, a, { first_name: 'Gone', last_name: 'Away', is_vip: true });
    await rest(t, a).delete(`/customers/${gone.uuid}`);
    const res = await fileText(rest(t, a).get('/customers/export?format=ndjson&filter=vip'));
    expect(res.headers['content-type']).toBe('application/x-ndjson');
    const lines = ndjson(res.body);
    const listed = (await rest(t, a).get('/customers?filter=vip')).body.data.customers;
    expect(lines).toEqual(listed);
    expect(lines.map((c) => c.uuid)).toEqual([vip.uuid]);
    const all = await fileText(rest(t, a).get('/customers/export?format=ndjson&filter=vip&include_deleted=true&sort=first_name'));
    expect(ndjson(all.body).map((l) => l.first_name)).toEqual(['Gone', 'Vera']);
    // No pages: page and limit are not parameters of an export.
    const paged = await rest(t, a).get('/customers/export?page=2');
    expect(paged.status).toBe(400);
    expect(paged.body.error.details[0].field).toBe('page');
  });

  it('across several cursor batches: every record once, in the order and the form of the list pages', async () => {
    const a = await createTenant(t);
    const n = 2 * EXPORT_BATCH + 7;
    // Rows written by SQL (as the benchmark's), some with the same created_at: the order's tie-break counts.
    await t.orm.em.getConnection().execute(
      `insert into customers (uuid, company_uuid, first_name, last_name, created_at, updated_at)
       select gen_random_uuid(), ?, 'First' || i, 'Last' || i, now() - make_interval(secs => i / 3), now() from generate_series(1, ?::int) as i`,
      [a.companyUuid, n],
    );
    const paged: unknown[] = [];
    for (let page = 1; paged.length < n; page++) paged.push(...(await rest(t, a).get(`/customers?limit=100&page=${page}`)).body.data.customers);
    const lines = ndjson((await fileText(rest(t, a).get('/customers/export?format=ndjson'))).body);
    expect(lines.length).toBe(n);
    expect(lines).toEqual(paged);
    const csv = parse((await fileText(rest(t, a).get('/customers/export'))).body, { columns: true }) as Record<string, string>[];
    expect(csv.map((r) => r.uuid)).toEqual(lines.map((l) => l.uuid));
  });

  it('an empty list is the header alone; every list route has its export with the list scope', async () => {
    const a = await createTenant(t);
    const res = await fileText(rest(t, a).get('/invoices/export'));
    expect(res.status).toBe(200);
    expect((res.body).trim().split(',')[0]).toBe('uuid');
    for (const plural of ['locations', 'jobs', 'payments', 'estimates', 'templates', 'recurring_invoices', 'users', 'visits']) {
      const r = await rest(t, a).get(`/${plural}/export?format=ndjson`);
      expect([plural, r.status]).toEqual([plural, 200]);
    }
  });

  it("is the tenant's own records, and a technician's export is what their list shows (money withheld)", async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other Co' });
    await makeCustomer(t, b, { first_name: 'Bea', last_name: 'Bee' });
    const world = await technicianWorld(t, a);
    const ownerAll = ndjson((await fileText(rest(t, a).get('/customers/export?format=ndjson'))).body);
    expect(ownerAll.some((c) => c.first_name === 'Bea')).toBe(false);
    const techList = (await rest(t, world.tech).get('/customers?limit=100')).body.data.customers;
    const techExport = ndjson((await fileText(rest(t, world.tech).get('/customers/export?format=ndjson'))).body);
    expect(techExport).toEqual(techList);
    expect(techExport.length).toBeLessThan(ownerAll.length);
    const jobs = ndjson((await fileText(rest(t, world.tech).get('/jobs/export?format=ndjson'))).body);
    expect(jobs).toEqual((await rest(t, world.tech).get('/jobs?limit=100')).body.data.jobs.map(({ customer: _c, ...j }: Record<string, unknown>) => j));
    expect(jobs.every((j) => j.estimated_amount === null)).toBe(true);
    // Outside the role: 403 before anything is read.
    const denied = await rest(t, world.tech).get('/invoices/export');
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('PERMISSION_DENIED');
  });
});
