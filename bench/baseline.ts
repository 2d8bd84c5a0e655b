import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { CUSTOMER, CUSTOMER_BY_ID, CUSTOMER_ROW, GQL_CUSTOMER, GQL_INVOICE, GQL_INVOICE_ROW, GQL_PAYMENT, INVOICE, INVOICE_AFTER, LIVE, listSql, REST_INVOICE_ROW } from './baseline-sql';
import { customerSearchSql } from '../src/modules/customer/customer.rules';
import { isOverdue } from '../src/modules/invoice/invoice.rules';

// The raw baseline: node:http + pg and nothing else (but the rules' pure SQL and TS forms,
// src/modules/*/*.rules.ts, imported rather than copied). For each benchmarked route it runs the SQL
// the server runs (authentication and single records as in the server's DEBUG_SQL log; a list's page,
// count and related records in one statement of JSON arrays, bench/baseline-sql.ts, checked against
// the read model's committed SQL by test/data/bench-baseline-sql.spec.ts) and writes the same JSON
// by hand. bench/run.ts checks that the bodies are equal.
// It is the ceiling a framework-free server reaches on this machine and database.

pg.types.setTypeParser(1082, (v) => v); // date → 'YYYY-MM-DD', as the server returns
pg.types.setTypeParser(20, (v) => Number(v)); // count(*) → number

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_MAX || 10) });

type Row = Record<string, any>;
const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
const money = (v: string | null) => (v === null ? null : Number(v));

const AUTH = `select a0.*, c1.uuid as c1__uuid, c1.name as c1__name, c1.email as c1__email, c1.phone as c1__phone, c1.address_line1 as c1__address_line1,
  c1.address_line2 as c1__address_line2, c1.city as c1__city, c1.state as c1__state, c1.postal_code as c1__postal_code, c1.country as c1__country,
  c1.addons as c1__addons, c1.created_at as c1__created_at, c1.updated_at as c1__updated_at, u2.id as u2__id, u2.company_uuid as u2__company_uuid,
  u2.first_name as u2__first_name, u2.last_name as u2__last_name, u2.email as u2__email, u2.created_at as u2__created_at, u2.updated_at as u2__updated_at
  from api_keys as a0 inner join companies as c1 on a0.company_uuid = c1.uuid inner join users as u2 on a0.user_id = u2.id
  where a0.key_hash = $1 and a0.revoked_at is null limit 1`;

async function auth(req: http.IncomingMessage): Promise<Row | null> {
  const m = /^Bearer\s+(fsk_[0-9A-Za-z]{40})\s*$/i.exec(req.headers.authorization ?? '');
  if (!m) return null;
  const { rows } = await pool.query({ name: 'auth', text: AUTH, values: [createHash('sha256').update(m[1]).digest('hex')] });
  return rows[0] ?? null;
}

function customerJson(r: Row): Row {
  return {
    uuid: r.uuid,
    first_name: r.first_name,
    last_name: r.last_name,
    company_name: r.company_name,
    email: r.email,
    phone: r.phone,
    customer_type: r.customer_type,
    is_vip: r.is_vip,
    physical_address1: r.physical_address1,
    physical_address2: r.physical_address2,
    physical_city: r.physical_city,
    physical_state: r.physical_state,
    physical_zip: r.physical_zip,
    billing_address1: r.billing_address1,
    billing_address2: r.billing_address2,
    billing_city: r.billing_city,
    billing_state: r.billing_state,
    billing_zip: r.billing_zip,
    primary_service_location_uuid: r.primary_service_location_uuid,
    notes: r.notes,
    internal_flags: r.internal_flags,
    on_my_way_notify_via: r.on_my_way_notify_via,
    custom_fields: r.custom_fields,
    external_ids: r.external_ids,
    tags: r.tags,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    deleted_at: iso(r.deleted_at),
  };
}

// The server's overdue rule, its TS form (src/modules/invoice/invoice.rules.ts).
const invoiceStatus = (r: Row) => (isOverdue(r.status, Number(r.balance_amount), r.due_date, r.company_today) ? 'Overdue' : r.status);

function invoiceJson(r: Row): Row {
  return {
    uuid: r.uuid,
    invoice_number: r.invoice_number,
    customer_uuid: r.customer_uuid,
    job_uuid: r.job_uuid,
    estimate_uuid: r.estimate_uuid,
    location_uuid: r.location_uuid,
    recurring_invoice_uuid: r.recurring_invoice_uuid,
    invoice_type: r.invoice_type,
    progress_percentage: r.progress_percentage === null ? null : Number(r.progress_percentage),
    issue_date: r.issue_date,
    due_date: r.due_date,
    subtotal: money(r.subtotal),
    tax_amount: money(r.tax_amount),
    discount_amount: money(r.discount_amount),
    total_amount: money(r.total_amount),
    paid_amount: money(r.paid_amount),
    balance_amount: money(r.balance_amount),
    line_items:
      r.line_items?.map((l: Row) => ({
        description: l.description ?? null,
        quantity: l.quantity ?? null,
        unit_price: l.unitPrice ?? null,
        line_total: l.lineTotal ?? null,
        tax_rate: l.taxRate ?? null,
        tax_amount: l.taxAmount ?? null,
      })) ?? null,
    notes: r.notes,
    terms: r.terms,
    internal_notes: r.internal_notes,
    status: invoiceStatus(r),
    custom_fields: r.custom_fields,
    external_ids: r.external_ids,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    deleted_at: iso(r.deleted_at),
  };
}

/** A row of the list's JSON as the column-named record the JSON writers below read. */
function rowOf(cols: readonly string[], values: unknown[], extra: string[] = []): Row {
  const r: Row = {};
  cols.forEach((c, i) => (r[c[0] === '=' ? c.slice(1) : c] = values[i]));
  extra.forEach((c, i) => (r[c] = values[cols.length + i]));
  return r;
}

const names = new Map<string, string>();

/** `prepare`: as the server, a list whose conditions are only equalities (not a search pattern) runs prepared. */
async function list(table: string, where: string, row: string, params: unknown[], page: number, limit: number, prepare = true): Promise<{ total: number; rows: any[] }> {
  const offset = (page - 1) * limit;
  // Prepared per connection under a name of its text, as the server runs its lists (src/data/prepared.ts).
  const text = listSql(table, where, row, params.length + 1, offset >= 1000);
  let name = names.get(text);
  if (!name) names.set(text, (name = `list_${names.size}`));
  // A filtered customer list passes the change count and total it remembers, and a deep page the
  // start it remembers, as the server does (src/data/remembered-totals.ts, remembered-starts.ts).
  const remembering = text.includes('(case when "kv"."changes"');
  const seeking = text.includes('union all');
  const key = `${text}\u0000${JSON.stringify(params)}`;
  const start = seeking ? ([0, 1].map((skip) => [starts.get(`${key}\u0000${offset - skip}`), skip] as const).find(([s]) => s) ?? [undefined, 0]) : null;
  const values = [
    ...params,
    limit,
    offset,
    ...(remembering ? (totals.get(key) ?? ['-1', 0]) : []),
    ...(start ? [...(start[0] ?? ['-1', '-infinity', '00000000-0000-0000-0000-000000000000']), start[1]] : []),
  ];
  const { rows } = await pool.query(prepare ? { name, text, values } : { text, values });
  if (remembering && rows[0].changes !== null) totals.set(key, [rows[0].changes, Number(rows[0].total)]);
  const got = rows[0].rows as unknown[][];
  if (seeking && rows[0].changes !== null && got.length) {
    // uuid and created_at are the first and third values of a customer's and an invoice's array.
    const at = (r: unknown[]) => ((Array.isArray(r[0]) ? r[0] : r) as string[]);
    const [first, last] = [at(got[0]), at(got[got.length - 1])];
    starts.set(`${key}\u0000${offset}`, [rows[0].changes, first[2], first[0]]);
    starts.set(`${key}\u0000${offset + got.length - 1}`, [rows[0].changes, last[2], last[0]]);
  }
  return rows[0];
}

/** Remembered totals and the change count each was counted under (the benchmark's few terms: unbounded). */
const totals = new Map<string, [string, number]>();
/** Remembered page starts: the change count, created_at and uuid of the row at an offset (the benchmark's few pages: unbounded). */
const starts = new Map<string, [string, string, string]>();

function pageArgs(q: URLSearchParams): { page: number; limit: number } {
  return { page: Number(q.get('page') ?? 1), limit: Math.min(Number(q.get('limit') ?? 50), 100) };
}

const pagination = (page: number, limit: number, total: number) => ({ page, limit, total, total_pages: Math.ceil(total / limit) });

async function customerList(company: string, q: URLSearchParams): Promise<Row> {
  const { page, limit } = pageArgs(q);
  const search = q.get('search');
  const params: unknown[] = [company];
  let where = LIVE;
  if (search) {
    // The server's condition (src/modules/customer/customer.rules.ts), its `?` numbered from $2.
    const cond = customerSearchSql('e', search, (t) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    let n = params.length;
    where += ` and (${cond.sql.replace(/\?/g, () => `$${++n}`)})`;
    params.push(...cond.params);
  }
  const { total, rows } = await list('customers', where, CUSTOMER_ROW, params, page, limit, !search);
  return { customers: rows.map((v) => customerJson(rowOf(CUSTOMER, v))), pagination: pagination(page, limit, total) };
}

async function invoiceList(company: string, q: URLSearchParams): Promise<Row> {
  const { page, limit } = pageArgs(q);
  const row = REST_INVOICE_ROW;
  const { total, rows } = await list('invoices', LIVE, row, [company], page, limit);
  const invoices = rows.map(([values, [c]]: [unknown[], [unknown[] | null]]) => {
    const customer = c && rowOf(CUSTOMER, c);
    return { ...invoiceJson(rowOf(INVOICE, values, ['company_today', ...INVOICE_AFTER.map((c) => c.slice(1))])), customer: customer ? { uuid: customer.uuid, first_name: customer.first_name, last_name: customer.last_name } : null };
  });
  return { invoices, pagination: pagination(page, limit, total) };
}

const ENUM = (v: string) => v.toUpperCase().replace(/ /g, '_');

/** The GraphQL invoices page of bench/run.ts (one fixed query), answered by hand. */
async function graphqlInvoices(company: string, limit: number): Promise<Row> {
  const row = GQL_INVOICE_ROW;
  const { total, rows } = await list('invoices', LIVE, row, [company], 1, limit);
  const items = rows.map(([values, [c, payments]]: [unknown[], [unknown[] | null, unknown[][]]]) => {
    const r = rowOf(GQL_INVOICE, values, ['company_today']);
    const customer = c && rowOf(GQL_CUSTOMER, c);
    return {
      uuid: r.uuid,
      invoiceNumber: r.invoice_number,
      status: ENUM(invoiceStatus(r)),
      issueDate: r.issue_date,
      dueDate: r.due_date,
      totalAmount: money(r.total_amount),
      paidAmount: money(r.paid_amount),
      balanceAmount: money(r.balance_amount),
      createdAt: iso(r.created_at),
      customer: customer ? { uuid: customer.uuid, firstName: customer.first_name, lastName: customer.last_name, email: customer.email } : null,
      payments: payments.slice(0, 100).map((v) => {
        const p = rowOf(GQL_PAYMENT, v);
        return { uuid: p.uuid, paymentNumber: p.payment_number, amount: money(p.amount), status: ENUM(p.status), paymentDate: p.payment_date };
      }),
    };
  });
  return { data: { invoices: { items, pagination: { page: 1, limit, total, totalPages: Math.ceil(total / limit) } } } };
}

const INSERT_CUSTOMER = `insert into customers (uuid, company_uuid, created_at, updated_at, deleted_at, first_name, last_name, company_name, email, phone,
  customer_type, is_vip, physical_address1, physical_address2, physical_city, physical_state, physical_zip, billing_address1, billing_address2,
  billing_city, billing_state, billing_zip, primary_service_location_uuid, notes, internal_flags, on_my_way_notify_via)
  values ($1, $2, $3, $3, null, $4, $5, $6, $7, $8, $9, $10, null, null, null, null, null, null, null, null, null, null, null, $11, null, null)`;

async function createCustomer(company: string, body: Row): Promise<Row> {
  const row = {
    uuid: randomUUID(),
    now: new Date(),
    first_name: String(body.first_name).trim(),
    last_name: String(body.last_name).trim(),
    company_name: body.company_name ?? null,
    email: body.email ? String(body.email).trim().toLowerCase() : null,
    phone: body.phone ?? null,
    customer_type: body.customer_type ?? 'Residential',
    is_vip: body.is_vip ?? false,
    notes: body.notes ?? null,
  };
  const client = await pool.connect();
  try {
    await client.query('begin');
    // Named: the server prepares its insert (src/data/insert.ts).
    await client.query({ name: 'insert_customer', text: INSERT_CUSTOMER, values: [row.uuid, company, row.now, row.first_name, row.last_name, row.company_name, row.email, row.phone, row.customer_type, row.is_vip, row.notes] });
    await client.query('commit');
  } catch (e) {
    await client.query('rollback');
    throw e;
  } finally {
    client.release();
  }
  return customerJson({ ...row, created_at: row.now, updated_at: row.now, deleted_at: null, physical_address1: null, physical_address2: null, physical_city: null, physical_state: null, physical_zip: null, billing_address1: null, billing_address2: null, billing_city: null, billing_state: null, billing_zip: null, primary_service_location_uuid: null, internal_flags: null, on_my_way_notify_via: null, custom_fields: {}, external_ids: {}, tags: [] });
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: http.IncomingMessage): Promise<Row> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {});
      } catch (e) {
        reject(e);
      }
    });
    req.on('error', reject);
  });
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const key = await auth(req);
    if (!key) return send(res, 401, { success: false, data: null, error: { code: 'UNAUTHORIZED', message: 'Invalid or revoked API key' } });
    const company = key.company_uuid as string;
    const ok = (data: unknown) => send(res, 200, { success: true, data });
    if (req.method === 'GET' && url.pathname === '/api/v1/customers') return ok(await customerList(company, url.searchParams));
    const one = /^\/api\/v1\/customers\/([0-9a-f-]{36})$/.exec(url.pathname);
    if (req.method === 'GET' && one) {
      // Named: the server prepares its one-record read (src/data/keyed.ts).
      const { rows } = await pool.query({ name: 'customer_by_id', text: CUSTOMER_BY_ID, values: [company, `{${one[1]}}`] });
      return rows[0] ? ok(customerJson(rows[0])) : send(res, 404, { success: false, data: null, error: { code: 'NOT_FOUND', message: 'Customer not found' } });
    }
    if (req.method === 'POST' && url.pathname === '/api/v1/customers') return ok(await createCustomer(company, await readBody(req)));
    if (req.method === 'GET' && url.pathname === '/api/v1/invoices') return ok(await invoiceList(company, url.searchParams));
    if (req.method === 'POST' && url.pathname === '/graphql') {
      const body = await readBody(req);
      return send(res, 200, await graphqlInvoices(company, Math.min(Number(body.variables?.limit ?? 50), 100)));
    }
    send(res, 404, { success: false, data: null, error: { code: 'NOT_FOUND', message: 'Route not found' } });
  } catch (e) {
    process.stderr.write(`baseline: ${String((e as Error)?.stack ?? e)}\n`);
    if (!res.headersSent) send(res, 500, { success: false, data: null, error: { code: 'INTERNAL', message: 'Internal server error' } });
  }
});

server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`baseline listening on ${(server.address() as { port: number }).port}\n`);
});
const stop = () => {
  server.close();
  void pool.end().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
