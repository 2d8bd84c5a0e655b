import 'reflect-metadata';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { Client } from 'pg';
import { runLoad } from './load-run';
import type { LoadVariant } from './load';
import { startApiServer, startBaseline, SERVER_NODE, START_NODE_OPTIONS } from './server';
import { cpuMsOf, databaseCpuMs, median as med, startProcess } from './procs';
import { GQL_INVOICES, invoiceBody, openBenchDatabase, QUICK, seed, VISIT_BODY } from './setup';

// `BASE=<another checkout> [SCEN=<path>,…,graphql,get,create,invoice,company,mcp,visit] npx ts-node --transpile-only bench/ab.ts [rounds] [seconds]`
// Same-run A/B of two builds: the server built from BASE (e.g. `git archive <rev> | tar -x -C /tmp/base`,
// with a node_modules symlink) and from this tree, plus the raw baseline, over one database seeded
// with the quick seed; the bodies of the three compared first (logged), then alternating rounds; medians of
// req/s, of server CPU per request and of the database's (every `postgres` process: keep other
// PostgreSQL servers of the machine idle) (docs/benchmark.md, "Before and after"). `get`: GET of one
// customer (200 of them in turn); `create`: a customer create (answers compared by their keys);
// `invoice`: bench/run.ts's invoice create, `company`: GraphQL `{ company { name } }`, `mcp`: the get as
// an MCP tools/call, `visit`: bench/run.ts's visit create (these four before and after only).
const BASE = process.env.BASE ?? '/tmp/list-base';
const log = (m: string) => process.stderr.write(`[ab] ${m}\n`);

async function main() {
  const r = spawnSync(SERVER_NODE, [path.join(BASE, 'scripts/build.js'), '--quiet'], { cwd: BASE, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  const db = await openBenchDatabase(log);
  const after = await startApiServer({ ...db.serverEnv }, 'after');
  const procs = [after];
  try {
    const { big } = await seed(db.url, QUICK, log);
    const before = await startProcess('before', SERVER_NODE, [path.join(BASE, 'dist/src/main.js')],
      { NODE_ENV: 'production', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', MIGRATE: 'false', SEED_DEMO: 'false', NODE_OPTIONS: START_NODE_OPTIONS, ...db.serverEnv }, /"port":(\d+)[^\n]*listening on/);
    procs.push(before);
    const baseline = await startBaseline(db.url, 10);
    procs.push(baseline);
    const auth = { authorization: `Bearer ${big.key}` };
    const pgc = new Client({ connectionString: db.url });
    await pgc.connect();
    const ids = (await pgc.query(`select uuid from customers where company_uuid = $1 order by md5(uuid::text) limit 200`, [big.companyUuid])).rows.map((r) => r.uuid as string);
    // `invoice`: the invoice create of bench/run.ts (invoice_create_one), over 200 of the big company's jobs.
    const jobs = (await pgc.query(`select uuid, customer_uuid from jobs where company_uuid = $1 and deleted_at is null order by md5(uuid::text) limit 200`, [big.companyUuid])).rows as Array<{ uuid: string; customer_uuid: string }>;
    await pgc.end();
    const json = { ...auth, 'content-type': 'application/json' };
    const named: Record<string, LoadVariant[]> = {
      get: ids.map((id) => ({ path: `/api/v1/customers/${id}`, headers: auth })),
      invoice: jobs.map((j) => ({ method: 'POST', path: '/api/v1/invoices', headers: json, body: invoiceBody(j) })),
      company: [{ method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: '{ company { name } }' }) }],
      mcp: ids.map((id) => ({ method: 'POST', path: '/mcp', headers: { ...json, accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_customer', arguments: { uuid: id } } }) })),
      visit: jobs.map((j) => ({ method: 'POST', path: `/api/v1/jobs/${j.uuid}/visits`, headers: json, body: VISIT_BODY })),
      create: [{ method: 'POST', path: '/api/v1/customers', headers: json, body: JSON.stringify({ first_name: 'Bench', last_name: 'Create', email: 'bench@create.example', phone: '(217) 555-0142' }) }],
    };
    const gqlVariant = { method: 'POST', path: '/graphql', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ query: GQL_INVOICES, variables: { limit: 100 } }) };
    const scenarios = (process.env.SCEN ?? '/api/v1/customers?limit=50,/api/v1/invoices?limit=50,graphql').split(',');
    const rounds = Number(process.argv[2] ?? 3);
    const seconds = Number(process.argv[3] ?? 4);
    const allServers = [['before', before], ['after', after], ['baseline', baseline]] as const;
    const out: Record<string, Record<string, { rps: number[]; cpu: number[]; db: number[] }>> = {};
    for (const p of scenarios) {
      const variants: LoadVariant[] = named[p] ?? [p === 'graphql' ? gqlVariant : { path: p, headers: auth }];
      const variant = variants[0];
      // The raw baseline has no invoices, visits or MCP.
      const servers = ['invoice', 'company', 'mcp', 'visit'].includes(p) ? allServers.filter(([n]) => n !== 'baseline') : allServers;
      const bodies = await Promise.all(servers.map(([, s]) => fetch(`http://127.0.0.1:${s.port}${variant.path}`, { method: variant.method ?? 'GET', headers: variant.headers, body: variant.body }).then((x) => x.text())));
      // A created record is new each time: its keys are compared.
      const same = (a: string, b: string) => (p === 'create' || p === 'invoice' || p === 'visit' ? JSON.stringify(Object.keys(JSON.parse(a).data)) === JSON.stringify(Object.keys(JSON.parse(b).data)) : a === b);
      log(`${p}: same body before/after ${same(bodies[0], bodies[1])}${bodies[2] === undefined ? '' : `, after/baseline ${same(bodies[1], bodies[2])}`}`);
      for (const [, s] of servers) await runLoad({ url: `http://127.0.0.1:${s.port}`, variants, connections: 10, durationSeconds: 3 });
      out[p] = {};
      for (let i = 0; i < rounds; i++) {
        const order = i % 2 ? [...servers].reverse() : servers;
        for (const [name, s] of order) {
          const [c0, d0] = [cpuMsOf(s.pid), databaseCpuMs()];
          const res = await runLoad({ url: `http://127.0.0.1:${s.port}`, variants, connections: 10, durationSeconds: seconds });
          const used = (cpuMsOf(s.pid) - c0) / res.requests;
          const database = (databaseCpuMs() - d0) / res.requests;
          if (res.non2xx || res.errors) throw new Error(`${name}: non-2xx ${res.non2xx}`);
          const o = (out[p][name] ??= { rps: [], cpu: [], db: [] });
          o.rps.push(res.rps), o.cpu.push(used), o.db.push(database);
          log(`${p} round ${i + 1} ${name}: ${res.rps.toFixed(1)} req/s, server CPU ${used.toFixed(3)} ms/request, database CPU ${database.toFixed(3)} ms/request`);
        }
      }
    }
    for (const [p, by] of Object.entries(out)) {
      const line = Object.entries(by).map(([n, v]) => `${n} ${med(v.rps).toFixed(1)} req/s ${med(v.cpu).toFixed(3)} ms CPU ${med(v.db).toFixed(3)} ms db`).join(' | ');
      const ratios = by.baseline ? ` | before/baseline ${(med(by.before.rps) / med(by.baseline.rps)).toFixed(2)}x after/baseline ${(med(by.after.rps) / med(by.baseline.rps)).toFixed(2)}x` : ` | after/before ${(med(by.after.rps) / med(by.before.rps)).toFixed(2)}x`;
      console.log(`${p}: ${line}${ratios}`);
    }
  } finally {
    for (const p of procs) await p.stop();
    await db.close();
  }
}
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
