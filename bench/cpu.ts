import 'reflect-metadata';
import { Client } from 'pg';
import type { LoadVariant } from './load';
import { runLoad } from './load-run';
import { cpuMsOf as cpuMs, Proc } from './procs';
import { startApiServer, startBaseline, startPostGraphile } from './server';

// `DATABASE_URL=<a database bench/setup.ts seeded> npx ts-node --transpile-only bench/cpu.ts [seconds] [rounds] [cpu-prof dir]`
// CPU per request of the server, the raw baseline and PostGraphile on the per-request floor's
// requests (one customer, a page of 50 customers, a customer create, `{ company { name } }`),
// over CONN connections (10 unless set): each process's user+system
// CPU time (/proc/<pid>/stat) over a load run, divided by the requests answered. Steadier than
// req/s on a shared machine, and it needs no fresh seed: the database is reused between runs.

const SCENARIOS = ['customer_get', 'customer_list', 'customer_create', 'graphql_company'] as const;

const load = runLoad;

async function main(): Promise<void> {
  const [secondsArg, roundsArg, prof] = process.argv.slice(2);
  const seconds = Number(secondsArg ?? 6);
  const rounds = Number(roundsArg ?? 2);
  const url = process.env.DATABASE_URL!;
  const db = new Client({ connectionString: url });
  await db.connect();
  const { rows: companies } = await db.query(`select c.uuid from companies c join customers cu on cu.company_uuid = c.uuid group by c.uuid order by count(*) desc limit 1`);
  const company = companies[0].uuid as string;
  const keyRow = await db.query(`select 1 from api_keys where company_uuid = $1 and revoked_at is null`, [company]);
  if (!keyRow.rowCount) throw new Error('no key');
  const ids = (await db.query(`select uuid from customers where company_uuid = $1 order by md5(uuid::text) limit 200`, [company])).rows.map((r) => r.uuid as string);
  await db.end();
  const key = process.env.BENCH_KEY!;
  const auth = { authorization: `Bearer ${key}` };
  const json = { ...auth, 'content-type': 'application/json' };
  // SERVERS='{"name": {ENV…}, …}': several server configurations measured in turn (default: one, as configured).
  const configs = Object.entries(JSON.parse(process.env.SERVERS ?? '{"server": {}}') as Record<string, Record<string, string>>);
  const servers: [string, Proc][] = [];
  const procs: Proc[] = [];
  try {
    for (const [name, env] of configs) {
      const p = await startApiServer({ DATABASE_URL: url, MIGRATE: 'false', WEBHOOK_WORKER: 'off', ...env }, name, prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []);
      procs.push(p);
      servers.push([name, p]);
    }
    const baseline = await startBaseline(url, 10);
    procs.push(baseline);
    const pgl = await startPostGraphile(url, 10);
    procs.push(pgl);
    const variants: Record<string, { ours: LoadVariant[]; theirs: LoadVariant[]; other: Proc }> = {
      customer_get: { ours: ids.map((id) => ({ path: `/api/v1/customers/${id}`, headers: auth })), theirs: ids.map((id) => ({ path: `/api/v1/customers/${id}`, headers: auth })), other: baseline },
      customer_list: { ours: [{ path: '/api/v1/customers?limit=50', headers: auth }], theirs: [{ path: '/api/v1/customers?limit=50', headers: auth }], other: baseline },
      customer_create: {
        ours: [{ method: 'POST', path: '/api/v1/customers', headers: json, body: JSON.stringify({ first_name: 'Bench', last_name: 'Create', email: 'bench@create.example', phone: '(217) 555-0142' }) }],
        theirs: [{ method: 'POST', path: '/api/v1/customers', headers: json, body: JSON.stringify({ first_name: 'Bench', last_name: 'Create', email: 'bench@create.example', phone: '(217) 555-0142' }) }],
        other: baseline,
      },
      graphql_company: {
        ours: [{ method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: '{ company { name } }' }) }],
        theirs: [{ method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'query C($c: UUID!) { companyByUuid(uuid: $c) { name } }', variables: { c: company } }) }],
        other: pgl,
      },
    };
    const measure = async (p: Proc, v: LoadVariant[]) => {
      await load({ url: `http://127.0.0.1:${p.port}`, variants: v, connections: 10, durationSeconds: 2 });
      const before = cpuMs(p.pid);
      const r = await load({ url: `http://127.0.0.1:${p.port}`, variants: v, connections: Number(process.env.CONN ?? 10), durationSeconds: seconds });
      const cpu = cpuMs(p.pid) - before;
      return { rps: r.rps, cpuPerReq: cpu / r.requests, non2xx: r.non2xx };
    };
    const only = (process.env.ONLY ?? SCENARIOS.join(',')).split(',');
    for (let round = 0; round < rounds; round++) {
      for (const s of SCENARIOS.filter((x) => only.includes(x))) {
        const v = variants[s];
        const ours: string[] = [];
        let first = 0;
        for (const [name, server] of servers) {
          const a = await measure(server, v.ours);
          first ||= a.rps;
          ours.push(`${name} ${a.rps.toFixed(0).padStart(5)} req/s ${a.cpuPerReq.toFixed(3)} ms CPU/req${a.non2xx ? ` (${a.non2xx} non-2xx)` : ''}`);
        }
        const b = await measure(v.other, v.theirs);
        process.stdout.write(`${s.padEnd(16)} ${ours.join(' | ')} | ${v.other.name} ${b.rps.toFixed(0).padStart(5)} req/s ${b.cpuPerReq.toFixed(3)} ms CPU/req | ratio ${(first / b.rps).toFixed(2)}×\n`);
      }
    }
  } finally {
    for (const p of procs.reverse()) await p.stop().catch(() => undefined);
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(String(e?.stack ?? e) + '\n');
    process.exit(1);
  },
);
