import 'reflect-metadata';
import { runLoad } from './load-run';

import { startApiServer } from './server';
import { GQL_INVOICES, openBenchDatabase, QUICK, seed } from './setup';
import { cpuMsOf } from './procs';

// `flock /tmp/fsc-heavy.lock npx ts-node --transpile-only bench/direct-calls.ts [rounds] [seconds]`
// Same-run A/B of src/graphql/direct-resolvers.ts: two API servers over one seeded database, one
// with the marked field resolvers called directly, one with GRAPHQL_DIRECT_CALLS=false; the GraphQL page of
// bench/run.ts against each in turn, several rounds; prints req/s and the server's CPU per request
// (/proc), which a busy machine disturbs less than throughput (docs/benchmark.md).
const log = (m: string) => process.stderr.write(`[ab] ${m}\n`);

const load = runLoad;

async function main() {
  const db = await openBenchDatabase(log);
  const on = await startApiServer({ ...db.serverEnv, GRAPHQL_DIRECT_CALLS: 'true' }, 'direct');
  try {
    const { big } = await seed(db.url, QUICK, log);
    const off = await startApiServer({ ...db.serverEnv, MIGRATE: 'false', GRAPHQL_DIRECT_CALLS: 'false' }, 'handler');
    try {
      const variants = [{ method: 'POST', path: '/graphql', headers: { authorization: `Bearer ${big.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ query: GQL_INVOICES, variables: { limit: 100 } }) }];
      const rounds = Number(process.argv[2] ?? 6);
      const seconds = Number(process.argv[3] ?? 4);
      for (const s of [on, off]) await load({ url: `http://127.0.0.1:${s.port}`, variants, connections: 10, durationSeconds: 2 });
      const results: Record<string, number[]> = { on: [], off: [] };
      const cpuMs: Record<string, number[]> = { on: [], off: [] };
      for (let r = 0; r < rounds; r++) {
        const order = r % 2 ? [['off', off], ['on', on]] as const : [['on', on], ['off', off]] as const;
        for (const [name, s] of order) {
          const before = cpuMsOf(s.pid);
          const res = await load({ url: `http://127.0.0.1:${s.port}`, variants, connections: 10, durationSeconds: seconds });
          const used = cpuMsOf(s.pid) - before;
          if (res.non2xx || res.errors) throw new Error(`${name}: non-2xx ${res.non2xx}, errors ${res.errors}`);
          results[name].push(res.rps);
          cpuMs[name].push(used / res.requests);
          log(`round ${r + 1} ${name}: ${res.rps.toFixed(1)} req/s p50 ${res.p50} ms, server CPU ${((used * 1000) / res.requests).toFixed(2)} ms/request`);
        }
      }
      const ratios = results.on.map((v, i) => v / results.off[i]);
      process.stdout.write(JSON.stringify({ results, ratios, cpuMs }) + '\n');
    } finally {
      await off.stop();
    }
  } finally {
    await on.stop();
    await db.close();
  }
}
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
