import 'reflect-metadata';
import { Client } from 'pg';
import type { LoadResult, LoadVariant } from './load';
import { runLoad } from './load-run';
import { Proc } from './procs';
import { seedCompany } from './seed';
import { startApiServer } from './server';
import { openBenchDatabase, Tenant } from './setup';
import { initOrm } from '../src/db/orm';
import { createCompany } from '../src/modules/company/company.admin';

// `npm run bench:growth [-- --duration 6] [-- --rounds 3] [-- --connections 10] [-- --large 1000000] [-- --keep]`
// (docs/benchmark.md, "Growth"). Two companies in one database: one with 100,000 customers, one
// with a million. The same requests to each, alternating, in rounds: page 1, page 2,000 and a
// search; each row's ratio is the small company's rate over the large one's (the target: ≤ 2).
// Then the cost of the kept customer count on writes: customer creates in one company with the
// count's triggers on and off, alternating. `--keep` leaves the database (DATABASE_URL only) for
// EXPLAIN ANALYZE by hand.

const argv = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const opt = {
  duration: arg('duration', 6),
  rounds: arg('rounds', 3),
  connections: arg('connections', 10),
  small: arg('small', 100_000),
  large: arg('large', 1_000_000),
  keep: argv.includes('--keep'),
};

const log = (m: string) => process.stderr.write(`[growth] ${m}\n`);
const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const TERMS = ['smith', 'garcia', 'mary.j', 'holdings', 'inbox.example', '555', 'nguyen', 'peterson'];

async function main(): Promise<void> {
  const db = await openBenchDatabase(log);
  let server: Proc | null = null;
  try {
    server = await startApiServer(db.serverEnv);
    const tenants: Tenant[] = [];
    const orm = await initOrm(db.url, 2);
    try {
      for (const name of ['Growth Small', 'Growth Large']) {
        const { company, user, apiKey } = await createCompany(orm.em.fork(), { name, email: `${name.replace(' ', '.').toLowerCase()}@bench.example` });
        tenants.push({ name, companyUuid: company.uuid, userId: user.id, key: apiKey });
      }
    } finally {
      await orm.close(true);
    }
    const [small, large] = tenants;
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    const t0 = Date.now();
    // A bulk load: the customers' secondary indexes are dropped and built again after the rows are
    // in (maintaining the two trigram indexes row by row made a million rows take over 5 minutes).
    const { rows: indexes } = await pg.query(`select indexname, indexdef from pg_indexes where schemaname = 'public' and tablename = 'customers' and indexname <> 'customers_pkey'`);
    for (const ix of indexes) await pg.query(`drop index ${ix.indexname}`);
    await seedCompany(pg, { uuid: small.companyUuid, userId: small.userId, customers: opt.small, jobs: 0, invoices: 0 });
    log(`${opt.small} customers in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const t1 = Date.now();
    await seedCompany(pg, { uuid: large.companyUuid, userId: large.userId, customers: opt.large, jobs: 0, invoices: 0 });
    log(`${opt.large} customers in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    const t2 = Date.now();
    await pg.query(`set maintenance_work_mem = '256MB'`);
    for (const ix of indexes) await pg.query(ix.indexdef);
    await pg.query(`reset maintenance_work_mem`);
    log(`${indexes.length} indexes built in ${((Date.now() - t2) / 1000).toFixed(1)} s`);
    await pg.query('vacuum analyze');
    await pg.query('checkpoint');
    log(`seeded, vacuumed and analyzed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const S = `http://127.0.0.1:${server.port}`;
    const run = async (variants: LoadVariant[]): Promise<LoadResult> => {
      const job = { url: S, variants, connections: opt.connections, durationSeconds: opt.duration };
      await runLoad({ ...job, durationSeconds: 2 });
      const r = await runLoad(job);
      if (r.non2xx || r.errors) throw new Error(`non-2xx or errors: ${JSON.stringify(r.statusCodes)}, ${r.errors}`);
      return r;
    };
    const scenarios: Array<{ id: string; label: string; of: (t: Tenant) => LoadVariant[] }> = [
      { id: 'page1', label: 'REST customer list, page 1 (limit 50)', of: (t) => [{ path: '/api/v1/customers?limit=50', headers: auth(t.key) }] },
      { id: 'page2000', label: 'REST customer list, page 2,000 (limit 50)', of: (t) => [{ path: '/api/v1/customers?limit=50&page=2000', headers: auth(t.key) }] },
      { id: 'search', label: 'REST customer search (limit 50, 8 terms)', of: (t) => TERMS.map((s) => ({ path: `/api/v1/customers?limit=50&search=${encodeURIComponent(s)}`, headers: auth(t.key) })) },
      { id: 'include_deleted', label: 'REST customer list, include_deleted (limit 50)', of: (t) => [{ path: '/api/v1/customers?limit=50&include_deleted=true', headers: auth(t.key) }] },
    ];
    const results: Record<string, Array<{ small: LoadResult; large: LoadResult }>> = {};
    for (let round = 0; round < opt.rounds; round++) {
      for (const s of scenarios) {
        // Alternate which company goes first, so that drift in the machine's load falls on both.
        const first = round % 2 === 0 ? small : large;
        const a = await run(s.of(first));
        const b = await run(s.of(first === small ? large : small));
        const pair = first === small ? { small: a, large: b } : { small: b, large: a };
        (results[s.id] ??= []).push(pair);
        log(`round ${round + 1} ${s.label}: ${pair.small.rps.toFixed(0)} vs ${pair.large.rps.toFixed(0)} req/s (${(pair.small.rps / pair.large.rps).toFixed(2)}×)`);
      }
    }

    // Writes: customer creates in the large company, the kept count's triggers on and off.
    const create = [{ method: 'POST', path: '/api/v1/customers', headers: { ...auth(large.key), 'content-type': 'application/json' }, body: JSON.stringify({ first_name: 'Bench', last_name: 'Create', email: 'bench@create.example', phone: '(217) 555-0142' }) }];
    const writes: Array<{ on: LoadResult; off: LoadResult }> = [];
    const triggers = async (on: boolean) => {
      for (const e of ['insert', 'update', 'delete', 'truncate']) await pg.query(`alter table customers ${on ? 'enable' : 'disable'} trigger customers_count_${e}`);
    };
    try {
      for (let round = 0; round < opt.rounds; round++) {
        const order = round % 2 === 0 ? [true, false] : [false, true];
        const pair: Partial<{ on: LoadResult; off: LoadResult }> = {};
        for (const on of order) {
          await triggers(on);
          pair[on ? 'on' : 'off'] = await run(create);
        }
        writes.push(pair as { on: LoadResult; off: LoadResult });
        log(`round ${round + 1} customer create: counted ${pair.on!.rps.toFixed(0)} vs not ${pair.off!.rps.toFixed(0)} req/s (${(pair.on!.rps / pair.off!.rps).toFixed(2)}×)`);
      }
    } finally {
      await triggers(true);
    }
    const { rows } = await pg.query(`select count(*)::int as n from customers`);
    await pg.end();

    const f2 = (n: number) => n.toFixed(2);
    const spread = (xs: number[]) => `${f2(Math.min(...xs))}–${f2(Math.max(...xs))}`;
    const out = (l: string) => process.stdout.write(l + '\n');
    out(`\nGrowth: ${opt.small.toLocaleString('en')} vs ${opt.large.toLocaleString('en')} customers in one company (${db.mode}, ${opt.rounds} rounds of ${opt.duration} s, ${opt.connections} connections; ${rows[0].n} customers at the end)\n`);
    out(`| Request | req/s at ${opt.small / 1000}k | req/s at ${opt.large / 1000}k | cost ratio (each round) | target |`);
    out('|---|---|---|---|---|');
    for (const s of scenarios) {
      const rs = results[s.id];
      const ratios = rs.map((r) => r.small.rps / r.large.rps);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      out(`| ${s.label} | ${mean(rs.map((r) => r.small.rps)).toFixed(0)} | ${mean(rs.map((r) => r.large.rps)).toFixed(0)} | ${f2(mean(ratios))}× (${spread(ratios)}) | ${s.id === 'include_deleted' ? '—' : '≤ 2×'} |`);
    }
    const wr = writes.map((w) => w.on.rps / w.off.rps);
    out(`| REST customer create, kept count on vs off | ${writes.map((w) => w.on.rps.toFixed(0)).join(', ')} (on) | ${writes.map((w) => w.off.rps.toFixed(0)).join(', ')} (off) | ${f2(wr.reduce((a, b) => a + b, 0) / wr.length)}× (${spread(wr)}) | — |`);
  } finally {
    await server?.stop().catch(() => undefined);
    if (opt.keep && db.mode === 'DATABASE_URL') log(`kept: ${db.url}`);
    else await db.close().catch((e) => log(`cleanup: ${e}`));
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`growth bench failed: ${String(e?.stack ?? e)}\n`);
    process.exit(1);
  },
);
