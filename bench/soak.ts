import 'reflect-metadata';
import fs from 'node:fs';
import { Client } from 'pg';
import type { LoadResult, LoadVariant } from './load';
import { runLoad } from './load-run';
import { median, Proc, rssOf } from './procs';
import { startApiServer } from './server';
import { openBenchDatabase, QUICK, seed, SeedSize } from './setup';
import * as probes from './soak-probes';

// `npm run soak [-- --minutes 10] [-- --warmup 2] [-- --share 0.7] [-- --json out.json] [-- --quick]` (not part
// of `npm test`; run it under the machine lock). The server as `npm start` runs it, over a
// seeded database; a mix of reads and writes over REST and GraphQL. First the mix's peak (req/s
// at 10 connections, 20 s), then `--minutes` one-minute runs at `--share` of that peak (a fixed
// rate over all connections). Reported: RSS and V8 heap (the server's /metrics) sampled every
// 5 s, their slope after the warm-up minutes (least squares, MB per minute), each minute's p99
// against the first minute's, and every error and non-2xx answer; under each minute, where its
// time went (bench/soak-probes.ts).

const SIZE: SeedSize = { bigCustomers: 20_000, bigJobs: 10_000, bigInvoices: 10_000, small: 5, smallCustomers: 200, smallJobs: 100, smallInvoices: 80, bigVisits: 4_000 };

const log = (m: string) => process.stderr.write(`[soak] ${m}\n`);
const arg = (argv: string[], name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};

const load = runLoad;

/** Least-squares slope of (minute, value) points. */
function slope(points: [number, number][]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const num = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const den = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return den ? num / den : 0;
}

async function heapUsed(base: string): Promise<number | null> {
  try {
    const text = await (await fetch(`${base}/metrics`)).text();
    const m = /^nodejs_heap_size_used_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)/m.exec(text);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const minutes = Number(arg(argv, 'minutes') ?? 10);
  const warmup = Number(arg(argv, 'warmup') ?? 2);
  const share = Number(arg(argv, 'share') ?? 0.7);
  const jsonOut = arg(argv, 'json');
  const peakSeconds = Number(arg(argv, 'peak-seconds') ?? 20);
  // --quick: tiny data and no load beyond a short peak (checks the script works).
  const size = argv.includes('--quick') ? QUICK : SIZE;
  const db = await openBenchDatabase(log);
  const procs: Proc[] = [];
  try {
    const server = await startApiServer(db.serverEnv);
    procs.push(server);
    const { big, small } = await seed(db.url, size, log);
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    const ids = (await pg.query(`select uuid from customers where company_uuid = $1 order by md5(uuid::text) limit 200`, [big.companyUuid])).rows.map((r) => r.uuid as string);
    const base = `http://127.0.0.1:${server.port}`;
    const keys = [big.key, ...small.map((s) => s.key)];
    const auth = (k: string) => ({ authorization: `Bearer ${k}` });
    const json = (k: string) => ({ ...auth(k), 'content-type': 'application/json' });
    const gql = (k: string, query: string, variables?: unknown) => ({ method: 'POST', path: '/graphql', headers: json(k), body: JSON.stringify({ query, variables }) });
    // The mix, 20 requests taken in turn: one-record reads, list pages, creates and updates over both surfaces, over the tenants' keys.
    const variants: LoadVariant[] = [];
    for (let i = 0; i < 20; i++) {
      const k = keys[i % keys.length];
      const id = ids[i % ids.length];
      const mix: LoadVariant[] = [
        { path: `/api/v1/customers/${id}`, headers: auth(big.key) },
        { path: '/api/v1/customers?limit=20', headers: auth(k) },
        { method: 'POST', path: '/api/v1/customers', headers: json(k), body: JSON.stringify({ first_name: 'Soak', last_name: `Rest ${i}`, email: `soak${i}@example.com` }) },
        gql(k, '{ company { name } }'),
        gql(k, 'query($l: Int) { invoices(limit: $l) { items { uuid invoiceNumber totalAmount customer { uuid lastName } } pagination { total } } }', { l: 20 }),
        gql(k, 'mutation($i: CustomerCreateInput!) { createCustomer(input: $i) { uuid } }', { i: { firstName: 'Soak', lastName: `GraphQL ${i}` } }),
        { method: 'PUT', path: `/api/v1/customers/${id}`, headers: json(big.key), body: JSON.stringify({ notes: `soak ${i}` }) },
      ];
      variants.push(mix[i % mix.length]);
    }
    for (const v of variants) {
      const res = await fetch(base + v.path, { method: v.method ?? 'GET', headers: v.headers, body: v.body });
      const body = (await res.json()) as { errors?: unknown };
      if (res.status !== 200 || body.errors) throw new Error(`${v.method ?? 'GET'} ${v.path}: ${res.status} ${JSON.stringify(body).slice(0, 400)}`);
    }
    log(`peak of the mix (10 connections, ${peakSeconds} s)…`);
    await load({ url: base, variants, connections: 10, durationSeconds: Math.min(5, peakSeconds) });
    const peak = await load({ url: base, variants, connections: 10, durationSeconds: peakSeconds });
    const rate = Math.max(1, Math.round(peak.rps * share));
    log(`peak ${peak.rps.toFixed(0)} req/s (p99 ${peak.p99} ms); soak at ${rate} req/s for ${minutes} min`);

    const started = Date.now();
    const samples: { minute: number; rss: number; heap: number | null }[] = [];
    // The fixed work's CPU time, every 5 s of the current minute (soak-probes.ts); its first runs warm it up.
    for (let i = 0; i < 5; i++) probes.fixedWorkMs();
    let work: { arithmetic: number; memory: number }[] = [];
    const sampler = setInterval(() => {
      const minute = (Date.now() - started) / 60_000;
      work.push(probes.fixedWorkMs());
      const rss = rssOf(server.pid);
      void heapUsed(base).then((heap) => samples.push({ minute, rss, heap }));
    }, 5_000);
    const waits = probes.sampleWaits(db.url);
    const perMinute: LoadResult[] = [];
    const probed: (probes.MinuteProbe & { fixedWorkMs: { arithmetic: number; memory: number } })[] = [];
    try {
      let before = await probes.read(base, pg, server.pid);
      waits.take();
      for (let m = 0; m < minutes; m++) {
        const r = await load({ url: base, variants, connections: 10, durationSeconds: 60, overallRate: rate });
        const end = await probes.read(base, pg, server.pid);
        const p = { ...probes.minute(before, end), waits: waits.take(), fixedWorkMs: { arithmetic: median(work.map((w) => w.arithmetic)), memory: median(work.map((w) => w.memory)) } };
        work = [];
        before = end;
        perMinute.push(r);
        probed.push(p);
        const last = samples[samples.length - 1];
        log(`minute ${m + 1}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}, RSS ${((last?.rss ?? 0) / 2 ** 20).toFixed(0)} MB, heap ${((last?.heap ?? 0) / 2 ** 20).toFixed(0)} MB`);
        log(`  ${probes.describe(p)}; fixed work: arithmetic ${p.fixedWorkMs.arithmetic.toFixed(2)} ms, memory ${p.fixedWorkMs.memory.toFixed(2)} ms of CPU`);
      }
    } finally {
      clearInterval(sampler);
      await waits.stop();
      await pg.end();
    }
    const after = samples.filter((s) => s.minute >= warmup);
    const MB = 2 ** 20;
    const report = {
      seed: size,
      peakRps: peak.rps,
      rate,
      minutes,
      warmupMinutes: warmup,
      rssSlopeMbPerMin: slope(after.map((s) => [s.minute, s.rss / MB])),
      heapSlopeMbPerMin: slope(after.filter((s) => s.heap !== null).map((s) => [s.minute, s.heap! / MB])),
      rssMb: { first: samples[0]?.rss / MB, afterWarmup: after[0]?.rss / MB, last: samples[samples.length - 1]?.rss / MB, max: Math.max(...samples.map((s) => s.rss)) / MB },
      heapMb: { afterWarmup: (after[0]?.heap ?? 0) / MB, last: (samples[samples.length - 1]?.heap ?? 0) / MB },
      p99FirstMinute: perMinute[0]?.p99,
      p99Worst: Math.max(...perMinute.map((r) => r.p99)),
      p99WorstVsFirst: Math.max(...perMinute.map((r) => r.p99)) / (perMinute[0]?.p99 || 1),
      requests: perMinute.reduce((a, r) => a + r.requests, 0),
      non2xx: perMinute.reduce((a, r) => a + r.non2xx, 0),
      errors: perMinute.reduce((a, r) => a + r.errors, 0),
      perMinute: perMinute.map((r, i) => ({ rps: r.rps, p50: r.p50, p99: r.p99, non2xx: r.non2xx, errors: r.errors, ...probed[i] })),
      samples,
    };
    const f = (n: number) => n.toFixed(2);
    process.stdout.write(
      [
        '',
        `Soak: ${minutes} min at ${rate} req/s (${Math.round(share * 100)}% of the mix's peak ${peak.rps.toFixed(0)} req/s), ${report.requests} requests`,
        `RSS after ${warmup} min warm-up: ${f(report.rssMb.afterWarmup)} MB → ${f(report.rssMb.last)} MB (max ${f(report.rssMb.max)}), slope ${f(report.rssSlopeMbPerMin)} MB/min`,
        `V8 heap used after warm-up: ${f(report.heapMb.afterWarmup)} MB → ${f(report.heapMb.last)} MB, slope ${f(report.heapSlopeMbPerMin)} MB/min`,
        `p99: first minute ${report.p99FirstMinute} ms, worst minute ${report.p99Worst} ms (${f(report.p99WorstVsFirst)}×)`,
        `non-2xx ${report.non2xx}, errors ${report.errors}`,
        '',
      ].join('\n'),
    );
    if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(report, null, 2));
  } finally {
    for (const p of procs.reverse()) await p.stop().catch(() => undefined);
    await db.close().catch(() => undefined);
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`soak failed: ${String(e?.stack ?? e)}\n`);
    process.exit(1);
  },
);
