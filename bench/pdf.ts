import type { LoadVariant } from './load';
import type { Measured, Row } from './report';

// Invoice PDFs (issue 17): a 20-line invoice under load (every request renders: no If-None-Match),
// and 500-line invoices one after another, for the server's RSS rise.

type Run = (variants: LoadVariant[], extra: { connections?: number; amount?: number; durationSeconds?: number }) => Promise<Measured>;

/** A Draft invoice of the job with `lines` line items (descriptions with ¾ and ″), by the REST API. */
export async function createInvoice(base: string, key: string, job: { uuid: string; customer_uuid: string }, lines: number): Promise<string> {
  const res = await fetch(`${base}/api/v1/invoices`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      job_uuid: job.uuid,
      customer_uuid: job.customer_uuid,
      due_date: '2027-01-31',
      status: 'Draft',
      line_items: Array.from({ length: lines }, (_, i) => ({ description: `Part ${i + 1}: copper fitting ¾″`, quantity: 1 + (i % 3), unit_price: 12.5 + i, tax_rate: 8.25 })),
    }),
  });
  const body = (await res.json()) as { data?: { uuid: string } };
  if (!body.data) throw new Error(`PDF bench: invoice create failed: ${JSON.stringify(body).slice(0, 400)}`);
  return body.data.uuid;
}

export async function pdfRows(o: {
  base: string;
  key: string;
  job: { uuid: string; customer_uuid: string };
  quick: boolean;
  rss: () => number;
  run: Run;
  log: (s: string) => void;
}): Promise<Row[]> {
  const invoice = (lines: number) => createInvoice(o.base, o.key, o.job, lines);
  const get = (uuid: string): LoadVariant[] => [{ path: `/api/v1/invoices/${uuid}/pdf`, headers: { authorization: `Bearer ${o.key}` } }];
  o.log('invoice PDF, 20 lines…');
  // Four connections: more would only wait in the server's render queue (2 at once).
  const small = await o.run(get(await invoice(20)), { connections: 4 });
  o.log(`  ${small.rps.toFixed(1)} PDFs/s, p50 ${small.p50} ms`);
  o.log('invoice PDF, 500 lines, one at a time…');
  const big = await invoice(500);
  await new Promise((r) => setTimeout(r, 1000));
  const idle = o.rss();
  const large = await o.run(get(big), { connections: 1, amount: o.quick ? 3 : 40, durationSeconds: undefined });
  return [
    { id: 'invoice_pdf_20', label: 'REST invoice PDF, 20 lines', result: small, baseline: null, sameJson: null },
    { id: 'invoice_pdf_500', label: 'REST invoice PDF, 500 lines, one at a time', result: large, baseline: null, sameJson: null, rssRise: (large.rssMax ?? idle) - idle },
  ];
}

// Only the PDF rows, on a server of their own (`npx ts-node --transpile-only bench/pdf.ts
// [--quick] [--duration 8] [--repeat 3] [--cpu-prof <dir>]`): a small seed (one company), then the rows above, as
// many times as --repeat says, each printed as it is measured. With `--base <checkout> [--rounds 4]`:
// a same-run A/B of the 20-line row against another build (sameRunAB). With `--render [--rounds 100]
// [--lines 20]`: the renderer alone, plain fonts against shared fonts in one process.
async function main(argv: string[]): Promise<void> {
  const fs = await import('node:fs');
  const [setup, procs, server, { runLoad }] = await Promise.all([import('./setup'), import('./procs'), import('./server'), import('./load-run')]);
  const arg = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const quick = argv.includes('--quick');
  const duration = Number(arg('duration') ?? (quick ? 1 : 8));
  const repeat = Number(arg('repeat') ?? 1);
  const log = (m: string) => process.stderr.write(`[bench pdf] ${m}\n`);
  const load = runLoad;
  const db = await setup.openBenchDatabase(log);
  let api: Awaited<ReturnType<typeof server.startApiServer>> | null = null;
  try {
    const prof = arg('cpu-prof');
    api = await server.startApiServer(db.serverEnv, 'server', prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []);
    const pid = api.pid;
    const size = { ...setup.QUICK, small: 0 };
    const { big } = await setup.seed(db.url, size, log);
    const base = `http://127.0.0.1:${api.port}`;
    const pgc = new (await import('pg')).Client({ connectionString: db.url });
    await pgc.connect();
    const job = (await pgc.query(`select uuid, customer_uuid from jobs where company_uuid = $1 and deleted_at is null order by created_at desc limit 1`, [big.companyUuid])).rows[0] as { uuid: string; customer_uuid: string };
    await pgc.end();
    // The server's CPU time (user + system, /proc/<pid>/stat, in 1/100 s) per answered request:
    // what a PDF costs, whatever else the machine is doing meanwhile.
    const cpuMs = () => procs.cpuMsOf(pid);
    const run: Run = async (variants, extra) => {
      const job: import('./load').LoadJob = { url: base, variants, connections: 10, durationSeconds: duration, ...extra };
      if (!extra.amount) await load(quick ? { ...job, amount: 3 * (job.connections ?? 1) } : { ...job, durationSeconds: 2 });
      const rss = procs.sampleRss(pid);
      const cpu = cpuMs();
      const r = await load(job);
      const mem = rss.stop();
      log(`  server CPU ${((cpuMs() - cpu) / Math.max(1, r.requests)).toFixed(1)} ms per request (${r.requests} requests, ${job.connections} connections)`);
      return { ...r, rssMax: mem.max, rssBefore: mem.first };
    };
    const baseDir = arg('base');
    if (baseDir) {
      await sameRunAB({ baseDir, db, after: api, key: big.key, uuid: await createInvoice(base, big.key, job, 20), rounds: Number(arg('rounds') ?? 4), duration, log });
      return;
    }
    for (let i = 0; i < repeat; i++) {
      // Also one request at a time: the time of one PDF, without waiting behind the others.
      const one = await run([{ path: `/api/v1/invoices/${await createInvoice(base, big.key, job, 20)}/pdf`, headers: { authorization: `Bearer ${big.key}` } }], { connections: 1 });
      process.stdout.write(`REST invoice PDF, 20 lines, one connection: ${one.rps.toFixed(1)} PDFs/s, p50 ${one.p50} ms, p99 ${one.p99} ms, non-2xx ${one.non2xx}\n`);
      const rows = await pdfRows({ base, key: big.key, job, quick, rss: () => procs.rssOf(pid), run, log });
      for (const r of rows) {
        const rise = r.rssRise === undefined ? '' : `, RSS +${(r.rssRise / 1024 / 1024).toFixed(1)} MB`;
        process.stdout.write(`${r.label}: ${r.result.rps.toFixed(1)} PDFs/s, p50 ${r.result.p50} ms, p99 ${r.result.p99} ms, non-2xx ${r.result.non2xx}${rise}\n`);
      }
    }
  } finally {
    await api?.stop().catch(() => undefined);
    await db.close().catch((e) => log(`cleanup: ${e}`));
  }
}

/**
 * `--base <checkout>`: a same-run A/B of the 20-line PDF at 4 connections between the server built
 * from another checkout (e.g. `git archive main | tar -x -C /tmp/base`, with a node_modules
 * symlink) and this tree's, both on one database, in alternating rounds: each round's PDFs/s, p50,
 * p99, server CPU per request and RSS peak, then the medians. Both answers' bytes are compared first.
 */
async function sameRunAB(o: {
  baseDir: string;
  db: { serverEnv: Record<string, string> };
  after: { pid: number; port: number };
  key: string;
  uuid: string;
  rounds: number;
  duration: number;
  log: (m: string) => void;
}): Promise<void> {
  const path = await import('node:path');
  const { spawnSync } = await import('node:child_process');
  const { SERVER_NODE, START_NODE_OPTIONS } = await import('./server');
  const procs = await import('./procs');
  const { runLoad } = await import('./load-run');
  const built = spawnSync(SERVER_NODE, [path.join(o.baseDir, 'scripts/build.js'), '--quiet'], { cwd: o.baseDir, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(built.stderr);
  const env = { NODE_ENV: 'production', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', MIGRATE: 'false', SEED_DEMO: 'false', NODE_OPTIONS: START_NODE_OPTIONS, ...o.db.serverEnv };
  const before = await procs.startProcess('before', SERVER_NODE, [path.join(o.baseDir, 'dist/src/main.js')], env, /"port":(\d+)[^\n]*listening on/);
  try {
    const servers = [['before', before], ['after', o.after]] as const;
    const variant = { path: `/api/v1/invoices/${o.uuid}/pdf`, headers: { authorization: `Bearer ${o.key}` } };
    const bodies = await Promise.all(servers.map(([, s]) => fetch(`http://127.0.0.1:${s.port}${variant.path}`, { headers: variant.headers }).then(async (r) => [r.headers.get('etag'), Buffer.from(await r.arrayBuffer())] as const)));
    o.log(`same ETag ${bodies[0][0] === bodies[1][0]}, same bytes ${bodies[0][1].equals(bodies[1][1])}`);
    for (const [, s] of servers) await runLoad({ url: `http://127.0.0.1:${s.port}`, variants: [variant], connections: 4, durationSeconds: 3 });
    const out: Record<string, Array<{ rps: number; p50: number; p99: number; cpu: number; rss: number }>> = { before: [], after: [] };
    for (let i = 0; i < o.rounds; i++) {
      for (const [name, s] of i % 2 ? [...servers].reverse() : servers) {
        const rss = procs.sampleRss(s.pid);
        const c0 = procs.cpuMsOf(s.pid);
        const r = await runLoad({ url: `http://127.0.0.1:${s.port}`, variants: [variant], connections: 4, durationSeconds: o.duration });
        const m = { rps: r.rps, p50: r.p50, p99: r.p99, cpu: (procs.cpuMsOf(s.pid) - c0) / Math.max(1, r.requests), rss: rss.stop().max / 1024 / 1024 };
        if (r.non2xx || r.errors) throw new Error(`${name}: non-2xx ${r.non2xx}, errors ${r.errors}`);
        out[name].push(m);
        o.log(`round ${i + 1} ${name}: ${m.rps.toFixed(1)} PDFs/s, p50 ${m.p50} ms, p99 ${m.p99} ms, server CPU ${m.cpu.toFixed(1)} ms per request, RSS ${m.rss.toFixed(0)} MB`);
      }
    }
    const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
    for (const [name, rows] of Object.entries(out)) {
      const m = (k: keyof (typeof rows)[0]) => med(rows.map((r) => r[k]));
      process.stdout.write(`${name}: 20-line PDF, 4 connections, medians of ${rows.length}: ${m('rps').toFixed(1)} PDFs/s, p50 ${m('p50')} ms, p99 ${m('p99')} ms, server CPU ${m('cpu').toFixed(1)} ms per request, RSS peak ${Math.max(...rows.map((r) => r.rss)).toFixed(0)} MB\n`);
    }
  } finally {
    await before.stop();
  }
}

/**
 * `--render`: no server, no database: one process renders the 20-line invoice in turn on the plain
 * path (fonts parsed per document), on the shared fonts, and on the shared fonts with words never
 * seen before in every line (the worst case of the shaping cache), so that all three see the same
 * machine load; prints each one's median wall time and its CPU time per PDF.
 */
async function renderOnly(argv: string[]): Promise<void> {
  const { renderPdf } = await import('../src/modules/document/pdf.render');
  const rounds = Number(argv[argv.indexOf('--rounds') + 1]) || 100;
  const lines = Number(argv[argv.indexOf('--lines') + 1]) || 20;
  const view = (tag: string) => {
    const items = Array.from({ length: lines }, (_, i) => ({ description: `Part ${i + 1}: copper fitting ¾″${tag && ` lot ${tag}x${i}`}`, quantity: 1 + (i % 3), unitPriceCents: 1250 + 100 * i, amountCents: (1250 + 100 * i) * (1 + (i % 3)) }));
    const sub = items.reduce((a, l) => a + l.amountCents, 0);
    const tax = Math.round(sub * 0.0825);
    return {
      kind: 'invoice' as const, uuid: 'bench', companyUuid: 'bench', number: 'INV-0001', updatedAt: '2026-11-25T12:00:00.000Z',
      company: { name: 'Bench Big Plumbing', address: ['1 Main St', 'Springfield, IL 62701'], phone: null, email: 'office0@bench.example' },
      customer: { name: 'Mary Smith', companyName: null, address: ['12 Elm St', 'Springfield, IL 62701'], email: 'mary@inbox.example' },
      location: null, fields: { document: [], job: [], customer: [], location: [] }, dates: [['Issue date', '2026-11-25'], ['Due date', '2027-01-31']] as Array<[string, string]>, lines: items, subtotalCents: sub, adjustments: [],
      taxRate: 8.25, taxByRate: [], taxCents: tax, totalCents: sub + tax, status: 'Draft', invoice: { payments: [], paidCents: 0, balanceCents: sub + tax }, notes: null,
    };
  };
  const same = view('');
  const kinds = { plain: () => renderPdf(same, 'plain'), shared: () => renderPdf(same, 'shared'), 'shared, new words': (i: number) => renderPdf(view(String(i)), 'shared') };
  type Kind = keyof typeof kinds;
  const wall: Record<Kind, number[]> = { plain: [], shared: [], 'shared, new words': [] };
  const cpu: Record<Kind, number> = { plain: 0, shared: 0, 'shared, new words': 0 };
  const names = Object.keys(kinds) as Kind[];
  for (let i = 0; i < rounds + 10; i++) {
    for (let k = 0; k < names.length; k++) {
      const kind = names[(i + k) % names.length];
      const c = process.cpuUsage();
      const t = process.hrtime.bigint();
      await kinds[kind](i);
      if (i < 10) continue;
      wall[kind].push(Number(process.hrtime.bigint() - t) / 1e6);
      const d = process.cpuUsage(c);
      cpu[kind] += (d.user + d.system) / 1000;
    }
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
  for (const kind of names) {
    process.stdout.write(`${lines}-line invoice, ${kind}: p50 ${med(wall[kind]).toFixed(1)} ms, min ${Math.min(...wall[kind]).toFixed(1)} ms, CPU ${(cpu[kind] / rounds).toFixed(1)} ms per PDF\n`);
  }
  process.stdout.write(`shared / plain: medians ${(med(wall.shared) / med(wall.plain)).toFixed(2)}, CPU ${(cpu.shared / cpu.plain).toFixed(2)}; new words / plain: CPU ${(cpu['shared, new words'] / cpu.plain).toFixed(2)}\n`);
}

if (require.main === module) {
  (process.argv.includes('--render') ? renderOnly : main)(process.argv.slice(2)).then(
    () => process.exit(0),
    (e) => {
      process.stderr.write(`bench pdf failed: ${String(e?.stack ?? e)}\n`);
      process.exit(1);
    },
  );
}
