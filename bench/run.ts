// First, as in the server's entry points: the recurring task runs in this process (src/db/settling-storage.ts).
import '../src/db/settling-storage';
import 'reflect-metadata';
import { pdfRows } from './pdf';
import { importBenchRows } from './imports';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import type { LoadJob, LoadVariant } from './load';
import { Proc, rssOf, sampleRss } from './procs';
import { runLoad } from './load-run';
import { startApiServer, startBaseline, startPostGraphile } from './server';
import { FULL, GQL_INVOICES, invoiceBody, openBenchDatabase, QUICK, seed, Tenant, VISIT_BODY } from './setup';
import { printReport, Report, Row } from './report';
import { calendarWeek } from './seed-visits';
import { seedReach } from './seed-reach';
import { fieldValues, seedFields } from './seed-fields';
import { recurringRow } from './recurring-issue';
import { stripeRow } from './stripe-webhooks';
import { liveFanout, liveRow } from './live-fanout';
import { StripeStandIn } from '../test/helpers/stripe-stand-in';

// `npm run bench [-- --quick] [-- --duration 8] [-- --rounds 3] [-- --connections 10] [-- --json out.json]
//   [-- --only customer_get,customer_create,graphql_company] [-- --cpu-prof <dir>]`
// Seeds a database, starts the API server, the raw baseline and PostGraphile as processes of their
// own, drives each scenario with autocannon from another process and prints one table.

interface Options {
  quick: boolean;
  duration: number;
  /** Alternating rounds of each scenario (the server, then the baseline or PostGraphile, the other way round in the next); the median round is reported. */
  rounds: number;
  connections: number;
  json: string | null;
  /** Only these scenarios (ids, comma-separated); the upload and PDF rows only when named too. */
  only: Set<string> | null;
  /** The API server writes a V8 CPU profile into this directory when it stops (`--cpu-prof`). */
  cpuProf: string | null;
}

function options(argv: string[]): Options {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const quick = argv.includes('--quick');
  return {
    quick,
    duration: Number(get('duration') ?? (quick ? 1 : 8)),
    rounds: Math.max(1, Number(get('rounds') ?? (quick ? 1 : 3))),
    connections: Number(get('connections') ?? 10),
    json: get('json') ?? null,
    only: get('only') ? new Set(get('only')!.split(',').map((x) => x.trim()).filter(Boolean)) : null,
    cpuProf: get('cpu-prof') ? path.resolve(get('cpu-prof')!) : null,
  };
}

const log = (m: string) => process.stderr.write(`[bench] ${m}\n`);

/** The schedule set row's PUTs per connection in a run (a fixed number: see its scenario). */
const SCHEDULE_PUTS_PER_CONNECTION = 3;

const load = runLoad;

/** The first request-log line with a status of 400 or above (or an error line) in some server output. */
function refusedLine(out: string): string {
  return out.split('\n').find((l) => /"status":[45]\d\d|"level":50/.test(l))?.slice(0, 600) ?? '(none logged)';
}

const auth = (key: string) => ({ authorization: `Bearer ${key}` });
/** The customer create's body (with ten custom fields added in the custom-field row). */
const CREATE_BODY = { first_name: 'Bench', last_name: 'Create', email: 'bench@create.example', phone: '(217) 555-0142' };
const json = (key: string) => ({ ...auth(key), 'content-type': 'application/json' });

/** The same page asked of PostGraphile: its generated names, the company and deleted_at as conditions. */
export const PGL_INVOICES = `query InvoicesPage($limit: Int, $company: UUID!) {
  allInvoices(first: $limit, condition: { companyUuid: $company, deletedAt: null }, orderBy: [CREATED_AT_DESC, UUID_DESC]) {
    nodes { uuid invoiceNumber status issueDate dueDate totalAmount paidAmount balanceAmount createdAt
      customerByCustomerUuid { uuid firstName lastName email }
      paymentsByInvoiceUuid(condition: { deletedAt: null }, orderBy: [CREATED_AT_DESC, UUID_DESC]) {
        nodes { uuid paymentNumber amount status paymentDate } } }
    totalCount
  }
}`;

/** The smallest GraphQL question: the key's company's name (the per-request floor). */
export const GQL_COMPANY = JSON.stringify({ query: '{ company { name } }' });
/** The same asked of PostGraphile, which has no key: the company by its key. */
const pglCompany = (company: string) => JSON.stringify({ query: 'query Company($company: UUID!) { companyByUuid(uuid: $company) { name } }', variables: { company } });

/** A JPEG (by its bytes) of exactly `size` bytes, wrapped as a multipart form. */
function uploadBody(dir: string, size: number): { file: string; contentType: string } {
  const boundary = '----fscbench' + Date.now();
  const jpeg = Buffer.alloc(size);
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]).copy(jpeg);
  for (let i = 20; i < size - 2; i += 4096) jpeg[i] = i & 0xff;
  jpeg[size - 2] = 0xff;
  jpeg[size - 1] = 0xd9;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="photo_type"\r\n\r\nbefore\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="panel.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const file = path.join(dir, 'upload.multipart');
  fs.writeFileSync(file, Buffer.concat([head, jpeg, tail]));
  return { file, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function fetchJson(url: string, init: RequestInit): Promise<{ status: number; body: any }> {
  const res = await fetch(url, init);
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

let counted = 0;
/**
 * Counts the SQL statements of one request, from a server started with DEBUG_SQL=1: the lines its
 * log labels with the request's id (`[query] (request <X-Request-Id>) …`, src/auth/authenticate.ts),
 * so that the statements the server's background work (event positions, webhook dispatch) logs
 * meanwhile are not counted (test/data/statement-label.spec.ts: every statement of a request carries it).
 */
async function statementsOf(server: Proc, url: string, init: RequestInit): Promise<number> {
  const id = `bench-sql-${process.pid}-${++counted}`;
  const before = server.output().length;
  const res = await fetchJson(url, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-request-id': id } });
  if (res.status !== 200 || res.body.errors) throw new Error(`statement count request failed: ${JSON.stringify(res.body).slice(0, 500)}`);
  // The log is written by another process: give its last lines time to arrive.
  await new Promise((r) => setTimeout(r, 300));
  const lines = server.output().slice(before).split('\n').filter((l) => l.includes('[query]'));
  const own = lines.filter((l) => l.includes(`(request ${id})`)).length;
  if (!own) throw new Error(`no statement of request ${id} in the server's DEBUG_SQL log`);
  return own;
}

async function main(): Promise<void> {
  const opt = options(process.argv.slice(2));
  const started = Date.now();
  const size = opt.quick ? QUICK : FULL;
  const db = await openBenchDatabase(log);
  const procs: Proc[] = [];
  // The Stripe webhook row's stand-in for Stripe (test/helpers/stripe-stand-in.ts): the server's STRIPE_API_BASE.
  const stand = await new StripeStandIn().start();
  const cleanup = async () => {
    for (const p of procs.reverse()) await p.stop().catch(() => undefined);
    await stand.stop().catch(() => undefined);
    await db.close().catch((e) => log(`cleanup: ${e}`));
  };
  try {
    // The server migrates the empty database (MIGRATE on), then the data is seeded under it.
    const server = await startApiServer({ ...db.serverEnv, ...stand.env() }, 'server', opt.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${opt.cpuProf}`] : []);
    procs.push(server);
    log(`server pid ${server.pid} on port ${server.port} (${db.mode})`);
    const { big, small, techs } = await seed(db.url, size, log);
    // One technician with 1% of the big company's jobs (500 of 50,000), a visit each; a customers:read key.
    const reach = await seedReach(db.url, big, Math.max(3, Math.floor(size.bigJobs / 100)));
    // The custom-field rows' company (bench/seed-fields.ts), only when one of them runs.
    const fieldRows = ['customer_list_cf', 'customer_list_cf_filter', 'customer_create_cf'];
    const fields = !opt.only || fieldRows.some((id) => opt.only!.has(id)) ? await seedFields(db.url, `http://127.0.0.1:${server.port}`, big) : null;

    const poolMax = Number(process.env.DB_POOL_MAX || 10);
    const baseline = await startBaseline(db.url, poolMax);
    procs.push(baseline);
    const pgl = await startPostGraphile(db.url, poolMax);
    procs.push(pgl);
    log(`baseline on ${baseline.port}, PostGraphile on ${pgl.port}`);

    const S = `http://127.0.0.1:${server.port}`;
    const B = `http://127.0.0.1:${baseline.port}`;
    const P = `http://127.0.0.1:${pgl.port}`;

    // Fixtures: ids to read, search terms, jobs to invoice.
    const pgc = new Client({ connectionString: db.url });
    await pgc.connect();
    const ids = (await pgc.query(`select uuid from customers where company_uuid = $1 order by md5(uuid::text) limit 200`, [big.companyUuid])).rows.map((r) => r.uuid as string);
    const jobsOf = async (t: Tenant, n: number) =>
      (
        await pgc.query(
          `select j.uuid, j.customer_uuid from jobs j where j.company_uuid = $1 and j.deleted_at is null
           order by exists (select 1 from invoices i where i.job_uuid = j.uuid), j.created_at desc limit $2`,
          [t.companyUuid, n],
        )
      ).rows as { uuid: string; customer_uuid: string }[];
    const bigJobs = await jobsOf(big, 200);
    // One client runs one query at a time (pg refuses queued queries on one client from pg 9).
    const smallJobs: { t: Tenant; j: { uuid: string; customer_uuid: string } }[] = [];
    for (const t of small) for (const j of await jobsOf(t, 4)) smallJobs.push({ t, j });
    const photoJob = (await jobsOf(big, 1))[0];
    // Jobs of their own for the schedule row (each PUT after a job's first replaces its 730 visits).
    const scheduleJobs = (await jobsOf(big, 260)).slice(200);
    await pgc.end();
    const terms = ['smith', 'garcia', 'mary.j', 'holdings', 'inbox.example', '555', 'nguyen', 'peterson'];

    const K = big.key;
    const gqlBody = (limit: number) => JSON.stringify({ query: GQL_INVOICES, variables: { limit } });
    const pglBody = (limit: number) => JSON.stringify({ query: PGL_INVOICES, variables: { limit, company: big.companyUuid } });

    interface Scenario {
      id: string;
      label: string;
      variants: LoadVariant[];
      baseline?: boolean;
      /** Only the keys are compared with the baseline (records created anew). */
      compareKeys?: boolean;
      /** PostGraphile answers the same question right after the server's run (same data, same machine load). */
      postgraphile?: { id: string; label: string; body: string };
      /**
       * The scenario a target judges this one's cost against: run on the server beside it in
       * every round, so that the ratio compares runs made side by side, as with the baseline.
       */
      reference?: string;
      /**
       * The scenario and its reference run at the same time, half the connections each, instead
       * of one after the other: for two requests that do the same work, where the second run of a
       * pair measured up to 8% slower on this machine whichever came second (docs/benchmark.md).
       */
      together?: boolean;
      /** Load settings of its own (a request that takes longer than the quick test's tenth of a second). */
      extra?: Partial<LoadJob>;
    }
    const week = calendarWeek(size.bigVisits);
    const today = new Date().toISOString().slice(0, 10);
    const scheduleBody = JSON.stringify({ rrule: 'FREQ=DAILY', starts_on: today, start_time: '08:00', duration_minutes: 60, horizon_days: 730, title: 'Bench route' });
    const mcpCall = (uuid: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_customer', arguments: { uuid } } });
    const mcpHeaders = { ...json(K), accept: 'application/json, text/event-stream' };
    const lastPage = Math.max(1, Math.min(2000, Math.ceil(size.bigCustomers / 50)));
    const all: Scenario[] = [
      { id: 'customer_list', label: 'REST customer list (limit 50)', variants: [{ path: '/api/v1/customers?limit=50', headers: auth(K) }], baseline: true },
      { id: 'customer_get', label: 'REST customer get', variants: ids.map((id) => ({ path: `/api/v1/customers/${id}`, headers: auth(K) })), baseline: true },
      // The same GET with a key narrowed to customers:read (its rights decided once per key row).
      { id: 'customer_get_scoped', label: 'REST customer get, customers:read key', variants: ids.map((id) => ({ path: `/api/v1/customers/${id}`, headers: auth(reach.customersReadKey) })), reference: 'customer_get', together: true },
      // The same GET as an MCP tool call (POST /mcp, docs/agents.md), stateless: one JSON-RPC request each.
      { id: 'mcp_get_customer', label: 'MCP get_customer (tools/call)', variants: ids.map((id) => ({ method: 'POST', path: '/mcp', headers: mcpHeaders, body: mcpCall(id) })), reference: 'customer_get' },
      { id: 'customer_search', label: 'REST customer search (limit 50)', variants: terms.map((s) => ({ path: `/api/v1/customers?limit=50&search=${encodeURIComponent(s)}`, headers: auth(K) })), baseline: true, reference: 'customer_list' },
      { id: 'customer_page_deep', label: `REST customer list, page ${lastPage}`, variants: [{ path: `/api/v1/customers?limit=50&page=${lastPage}`, headers: auth(K) }], baseline: true, reference: 'customer_list' },
      // One technician's week (two-hour visits, four a day), for each of the 40 technicians in turn.
      { id: 'visit_calendar', label: 'REST calendar, one technician-week', variants: techs.map((u) => ({ path: `/api/v1/visits?user_id=${u}&from=${week.from}&to=${week.to}&limit=50`, headers: auth(K) })), reference: 'customer_list' },
      // A technician's jobs (1% of the company's, each also theirs through a visit) against the owner's page of the same size.
      { id: 'job_list', label: 'REST job list (limit 50), owner', variants: [{ path: '/api/v1/jobs?limit=50', headers: auth(K) }] },
      { id: 'job_list_technician', label: "REST job list (limit 50), a technician's", variants: [{ path: '/api/v1/jobs?limit=50', headers: auth(reach.technicianKey) }], reference: 'job_list' },
      { id: 'invoice_list', label: 'REST invoice list + customer (limit 50)', variants: [{ path: '/api/v1/invoices?limit=50', headers: auth(K) }], baseline: true },
      // Sorted pages (docs/conventions.md, Lists): the same lists in another order, through their sort indexes.
      { id: 'customer_list_sorted', label: 'REST customer list, sort=-updated_at (limit 50)', variants: [{ path: '/api/v1/customers?limit=50&sort=-updated_at', headers: auth(K) }], reference: 'customer_list' },
      { id: 'customer_list_sorted_name', label: 'REST customer list, sort=last_name (limit 50)', variants: [{ path: '/api/v1/customers?limit=50&sort=last_name', headers: auth(K) }], reference: 'customer_list' },
      { id: 'invoice_list_sorted', label: 'REST invoice list, sort=-invoice_number (limit 50)', variants: [{ path: '/api/v1/invoices?limit=50&sort=-invoice_number', headers: auth(K) }], reference: 'invoice_list' },
      {
        id: 'graphql_invoices',
        label: 'GraphQL 100 invoices + customer + payments',
        variants: [{ method: 'POST', path: '/graphql', headers: json(K), body: gqlBody(100) }],
        baseline: true,
        postgraphile: { id: 'postgraphile_invoices', label: 'PostGraphile 5: 100 invoices + customer + payments', body: pglBody(100) },
      },
      // The per-request floor of GraphQL: one small record (the key's company; PostGraphile by its key).
      {
        id: 'graphql_company',
        label: 'GraphQL { company { name } }',
        variants: [{ method: 'POST', path: '/graphql', headers: json(K), body: GQL_COMPANY }],
        postgraphile: { id: 'postgraphile_company', label: 'PostGraphile 5: companyByUuid { name }', body: pglCompany(big.companyUuid) },
      },
      // Custom fields (docs/custom-fields.md): the big company's customers copied with ten fields each,
      // against the big company's list (no definitions), and a page filtered by a select field.
      ...(fields
        ? [
            { id: 'customer_list_cf', label: 'REST customer list, 10 custom fields (limit 50)', variants: [{ path: '/api/v1/customers?limit=50', headers: auth(fields.key) }], reference: 'customer_list' },
            { id: 'customer_list_cf_filter', label: 'REST customer list, cf.unit=furnace (limit 50)', variants: [{ path: '/api/v1/customers?limit=50&cf.unit=furnace', headers: auth(fields.key) }], reference: 'customer_list_cf' },
          ]
        : []),
      { id: 'customer_create', label: 'REST customer create', variants: [{ method: 'POST', path: '/api/v1/customers', headers: json(K), body: JSON.stringify(CREATE_BODY) }], baseline: true, compareKeys: true },
      ...(fields
        ? [{ id: 'customer_create_cf', label: 'REST customer create, 10 custom fields', variants: [{ method: 'POST', path: '/api/v1/customers', headers: json(fields.key), body: JSON.stringify({ ...CREATE_BODY, custom_fields: fieldValues(1) }) }], reference: 'customer_create' }]
        : []),
      { id: 'invoice_create_one', label: 'REST invoice create, one company', variants: bigJobs.map((j) => ({ method: 'POST', path: '/api/v1/invoices', headers: json(K), body: invoiceBody(j) })), reference: 'customer_create' },
      { id: 'invoice_create_many', label: `REST invoice create, ${small.length} companies`, variants: smallJobs.map(({ t, j }) => ({ method: 'POST', path: '/api/v1/invoices', headers: json(t.key), body: invoiceBody(j) })) },
      { id: 'visit_create', label: 'REST visit create', variants: bigJobs.map((j) => ({ method: 'POST', path: `/api/v1/jobs/${j.uuid}/visits`, headers: json(K), body: VISIT_BODY })) },
      // A daily schedule to a 730-day horizon: 730 visits written before it answers (docs/recurring-work.md).
      // A fixed number of PUTs, each answered, its rate their answers over the run's time: a run
      // of a duration averages whole-second samples (a request longer than a second gave 0.0), and
      // leaves the PUTs it cut short running in the server into the next run.
      {
        id: 'schedule_set',
        label: 'REST schedule set, daily, 730-day horizon',
        variants: scheduleJobs.map((j) => ({ method: 'PUT', path: `/api/v1/jobs/${j.uuid}/schedule`, headers: json(K), body: scheduleBody })),
        reference: 'visit_create',
        extra: opt.quick ? { amount: 2, connections: 2, durationSeconds: undefined } : { amount: SCHEDULE_PUTS_PER_CONNECTION * opt.connections, durationSeconds: undefined },
      },
    ];
    const scenarios = all.filter((x) => !opt.only || opt.only.has(x.id));

    // The bodies must be the same before their speeds may be compared.
    const sameJson: Record<string, boolean> = {};
    for (const s of scenarios.filter((x) => x.baseline)) {
      const v = s.variants[0];
      const init = { method: v.method ?? 'GET', headers: v.headers, body: v.body };
      const [a, b] = [await fetchJson(S + v.path, init), await fetchJson(B + v.path, init)];
      if (a.status !== 200) throw new Error(`${s.label}: server answered ${a.status} ${JSON.stringify(a.body).slice(0, 400)}`);
      delete a.body.extensions;
      sameJson[s.id] = s.compareKeys ? JSON.stringify(Object.keys(a.body.data)) === JSON.stringify(Object.keys(b.body.data ?? {})) : JSON.stringify(a.body) === JSON.stringify(b.body);
      if (!sameJson[s.id]) log(`${s.label}: baseline JSON differs from the server's\n server:   ${JSON.stringify(a.body).slice(0, 600)}\n baseline: ${JSON.stringify(b.body).slice(0, 600)}`);
    }
    const pglCheck = await fetchJson(P + '/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: pglBody(100) });
    if (pglCheck.status !== 200 || pglCheck.body.errors) throw new Error(`PostGraphile query failed: ${JSON.stringify(pglCheck.body).slice(0, 1000)}`);
    const serverGql = await fetchJson(S + '/graphql', { method: 'POST', headers: json(K), body: gqlBody(100) });
    const sameRows = JSON.stringify(serverGql.body.data.invoices.items.map((i: any) => [i.uuid, i.payments.length])) ===
      JSON.stringify(pglCheck.body.data.allInvoices.nodes.map((i: any) => [i.uuid, i.paymentsByInvoiceUuid.nodes.length]));
    if (!sameRows) log('PostGraphile returned other invoices or payments than the server');
    const [ourCompany, theirCompany] = [
      await fetchJson(S + '/graphql', { method: 'POST', headers: json(K), body: GQL_COMPANY }),
      await fetchJson(P + '/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: pglCompany(big.companyUuid) }),
    ];
    const sameCompany = !!ourCompany.body.data?.company?.name && ourCompany.body.data.company.name === theirCompany.body.data?.companyByUuid?.name;
    if (!sameCompany) throw new Error(`the company's name differs: ${JSON.stringify(ourCompany.body)} vs PostGraphile ${JSON.stringify(theirCompany.body)}`);

    // SQL statements of the GraphQL page at two page sizes, counted from a server with DEBUG_SQL=1.
    const counter = await startApiServer({ ...db.serverEnv, MIGRATE: 'false', DEBUG_SQL: '1' }, 'sql-counter');
    procs.push(counter);
    const C = `http://127.0.0.1:${counter.port}`;
    await statementsOf(counter, C + '/graphql', { method: 'POST', headers: json(K), body: gqlBody(1) }); // warm-up (metadata)
    const statements = {
      small: { limit: 10, count: await statementsOf(counter, C + '/graphql', { method: 'POST', headers: json(K), body: gqlBody(10) }) },
      large: { limit: 100, count: await statementsOf(counter, C + '/graphql', { method: 'POST', headers: json(K), body: gqlBody(100) }) },
    };
    await counter.stop();
    procs.splice(procs.indexOf(counter), 1);

    const run = async (url: string, variants: LoadVariant[], pid: number | null, extra: Partial<LoadJob> = {}, warm = true) => {
      const base: LoadJob = { url, variants, connections: opt.connections, durationSeconds: opt.duration, ...extra };
      // Warm-up (JIT, pools, caches): 2 s, or a few requests in the quick form.
      if (!extra.amount && warm) await load(opt.quick ? { ...base, amount: 3 * opt.connections } : { ...base, durationSeconds: 2 });
      const rss = pid ? sampleRss(pid) : null;
      const r = await load(base);
      const mem = rss?.stop();
      return { ...r, rssMax: mem?.max ?? null, rssBefore: mem?.first ?? null };
    };

    // Every process serves every kind of read for a second before the first measurement: its
    // first seconds are slower (the customer list, measured first, cost 0.92 ms of CPU per
    // request in a server's seconds 2–5 and 0.57–0.65 ms from then on), and the scenario measured
    // first must not be the one that pays for them. Writes are left out: they would change the
    // pages compared with PostGraphile's.
    if (!opt.quick) {
      for (const s of scenarios.filter((x) => !x.id.includes('create') && x.id !== 'schedule_set')) {
        await load({ url: S, variants: s.variants, connections: opt.connections, durationSeconds: 1 });
        if (s.baseline) await load({ url: B, variants: s.variants, connections: opt.connections, durationSeconds: 1 });
        if (s.postgraphile) await load({ url: P, variants: [{ method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: s.postgraphile.body }], connections: opt.connections, durationSeconds: 1 });
      }
    }

    type Run = Awaited<ReturnType<typeof run>>;
    // The round with the median req/s (the lower of the two middle ones; its rate and latencies), with the requests, answers and
    // errors of every round, and the highest RSS of all.
    const medianRun = (runs: Run[]): Run => {
      const mid = [...runs].sort((a, b) => a.rps - b.rps)[Math.floor((runs.length - 1) / 2)];
      const sum = (k: 'requests' | 'non2xx' | 'errors') => runs.reduce((n, x) => n + x[k], 0);
      const statusCodes: Record<string, number> = {};
      for (const x of runs) for (const [code, n] of Object.entries(x.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
      const rss = runs.map((x) => x.rssMax).filter((x): x is number => x !== null);
      return { ...mid, requests: sum('requests'), non2xx: sum('non2xx'), errors: sum('errors'), statusCodes, rssMax: rss.length ? Math.max(...rss) : null, rssBefore: runs[0].rssBefore };
    };
    const rows: Row[] = [];
    for (const s of scenarios) {
      log(`${s.label}…`);
      const logged = server.output().length;
      const pglVariants: LoadVariant[] | null = s.postgraphile ? [{ method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: s.postgraphile.body }] : null;
      const ours: Run[] = [];
      const theirs: Run[] = [];
      const pglRuns: Run[] = [];
      const reference = s.reference ? all.find((x) => x.id === s.reference)! : null;
      const refRuns: Run[] = [];
      // Alternating rounds: this machine's speed moves by up to 25% from one run to the next, so
      // each ratio compares runs made side by side, and the median round of each is reported.
      // PostGraphile runs beside the server: for the page, the same invoices and payments (the
      // creates below add invoices without payments to the top of the page), and the same load.
      for (let i = 0; i < opt.rounds; i++) {
        const warm = i === 0;
        if (s.together && reference) {
          const half = { connections: Math.max(1, Math.floor(opt.connections / 2)) };
          const [mine, beside] = await Promise.all([run(S, s.variants, server.pid, { ...s.extra, ...half }, warm), run(S, reference.variants, server.pid, half, warm)]);
          ours.push(mine);
          refRuns.push(beside);
          continue;
        }
        const server1 = async () => void ours.push(await run(S, s.variants, server.pid, s.extra ?? {}, warm));
        const others = async () => {
          if (s.baseline) theirs.push(await run(B, s.variants, null, {}, warm));
          if (pglVariants) pglRuns.push(await run(P, pglVariants, pgl.pid, {}, warm));
        };
        // The reference runs next to the server's run, before it in one round and after it in the next.
        const ref = async () => void (reference && refRuns.push(await run(S, reference.variants, server.pid, {}, warm)));
        if (i % 2) await others().then(ref).then(server1);
        else await server1().then(ref).then(others);
      }
      const r = medianRun(ours);
      const b = s.baseline ? medianRun(theirs) : null;
      const refResult = reference ? medianRun(refRuns) : null;
      rows.push({ id: s.id, label: s.label, result: r, baseline: b, sameJson: s.baseline ? sameJson[s.id] : null, reference: reference && refResult ? { id: reference.id, label: reference.label, result: refResult } : null });
      // A refused request must be explainable: show the server's own log line for the first one.
      if (r.non2xx) log(`  non-2xx answers; first server log line: ${refusedLine(server.output().slice(logged))}`);
      log(`  ${ours.map((x) => x.rps.toFixed(1)).join(', ')} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms` + (b ? `; baseline ${theirs.map((x) => x.rps.toFixed(1)).join(', ')} req/s, p50 ${b.p50} ms` : ''));
      if (reference) log(`  beside it, ${reference.label}: ${refRuns.map((x) => x.rps.toFixed(1)).join(', ')} req/s`);
      if (s.postgraphile) {
        const pglResult = medianRun(pglRuns);
        rows.push({ id: s.postgraphile.id, label: s.postgraphile.label, result: pglResult, baseline: null, sameJson: null });
        log(`  ${s.postgraphile.label}: ${pglRuns.map((x) => x.rps.toFixed(1)).join(', ')} req/s, p50 ${pglResult.p50} ms, p99 ${pglResult.p99} ms`);
      }
    }

    // A 15 MiB photo, one request at a time: the RSS rise over the RSS before the uploads.
    if (!opt.only || opt.only.has('photo_upload')) {
      log('photo upload 15 MiB…');
      const upload = uploadBody(db.dataDir, 15 * 1024 * 1024);
      await new Promise((r) => setTimeout(r, 1000));
      const idle = rssOf(server.pid);
      const up = await run(S, [{ method: 'POST', path: `/api/v1/jobs/${photoJob.uuid}/photos`, headers: { ...auth(K), 'content-type': upload.contentType }, bodyFile: upload.file }], server.pid, {
        connections: 1,
        amount: opt.quick ? 2 : 6,
        durationSeconds: undefined,
      });
      rows.push({ id: 'photo_upload', label: 'REST photo upload, 15 MiB file', result: up, baseline: null, sameJson: null, rssRise: (up.rssMax ?? idle) - idle });
    }
    const invoiceCreates = all.find((x) => x.id === 'invoice_create_one')!.variants;
    if (!opt.only || opt.only.has('recurring_issue')) {
      const count = opt.quick ? 30 : 10_000;
      rows.push(await recurringRow({ base: S, url: db.url, big, count, createVariants: invoiceCreates, run: (v) => run(S, v, server.pid, {}, false), log }));
    }
    if (!opt.only || opt.only.has('stripe_webhooks')) {
      log('Stripe webhooks…');
      rows.push(await stripeRow({ base: S, url: db.url, stand, big, jobs: bigJobs, events: opt.quick ? 20 : 2000, rounds: opt.quick ? 1 : opt.rounds, run: (v, extra) => run(S, v, server.pid, extra), log }));
    }
    // Live delivery (docs/live-updates.md): 1,000 WebSocket subscribers of one company, 200 updates
    // a second for 10 s by UPDATE statements, each delivery timed from its commit (quick: 50, 20/s, 1 s).
    if (!opt.only || opt.only.has('live_fanout')) {
      log('live delivery…');
      const live = await liveFanout({ url: db.url, port: server.port, pid: server.pid, subscribers: opt.quick ? 50 : 1000, rate: opt.quick ? 20 : 200, seconds: opt.quick ? 1 : 10, jobs: 20, viaSql: true, log, output: () => server.output() });
      log(`  ${live.writesPerSecond.toFixed(1)} events/s, p50 ${live.latencyMs.p50.toFixed(0)} ms, p99 ${live.latencyMs.p99.toFixed(0)} ms, ${live.deliveries} of ${live.expected} deliveries, ${live.rssKbPerIdleSubscriber.toFixed(1)} KB per idle subscriber`);
      rows.push(liveRow(live));
    }
    // Imports and exports (docs/import-export.md): 500,000 rows in, 1,000,000 out (quick: 500 and 5,000).
    if (!opt.only || opt.only.has('import_customers')) rows.push(...(await importBenchRows({ url: db.url, base: S, pid: server.pid, quick: opt.quick, log })));
    if (!opt.only || opt.only.has('invoice_pdf')) rows.push(...(await pdfRows({ base: S, key: K, job: photoJob, quick: opt.quick, rss: () => rssOf(server.pid), run: (v, extra) => run(S, v, server.pid, extra), log })));

    const report: Report = {
      mode: db.mode,
      quick: opt.quick,
      durationSeconds: opt.duration,
      rounds: opt.rounds,
      connections: opt.connections,
      seed: size,
      rows,
      statements,
      postgraphileSameRows: sameRows,
      uploadBytes: 15 * 1024 * 1024,
      elapsedSeconds: (Date.now() - started) / 1000,
    };
    printReport(report, (line) => process.stdout.write(line + '\n'));
    if (opt.json) fs.writeFileSync(opt.json, JSON.stringify(report, null, 2));
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`bench failed: ${String(e?.stack ?? e)}\n`);
    process.exit(1);
  },
);
