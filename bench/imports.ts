import 'reflect-metadata';
import { stringify } from 'csv-stringify/sync';
import { Client } from 'pg';
import type { Measured, Row } from './report';
import { sampleRss } from './procs';

// Imports and exports (docs/import-export.md), measured on the bench's server process:
// - import_customers: a file of `importRows` customers imported in create mode, in rows/s (from
//   the import's started_at to finished_at), beside REST customer creates of the same run (10 at
//   a time) as its reference; its rssRise is the server's RSS rise while it runs.
// - export_customers_csv: `exportRows` customers (inserted by SQL into a company of their own)
//   exported as CSV, in customers/s; its rssRise is the server's RSS rise from the first 10% of the
//   file to its end (flat: constant memory).

export interface ImportBenchOptions {
  base: string;
  /** A key of a company to import into (owner). */
  key: string;
  /** Its company's uuid, and a second company's for the export's rows. */
  exportCompany: string;
  exportKey: string;
  url: string;
  pid: number;
  importRows: number;
  exportRows: number;
  log: (m: string) => void;
}

const measured = (requests: number, seconds: number, rss: { first: number; max: number } | null): Measured => ({
  requests,
  seconds,
  rps: requests / seconds,
  p50: 0,
  p99: 0,
  non2xx: 0,
  statusCodes: {},
  errors: 0,
  rssMax: rss?.max ?? null,
  rssBefore: rss?.first ?? null,
});

function customerCsv(n: number, offset: number): Buffer {
  const rows: string[][] = [['first_name', 'last_name', 'email', 'phone', 'customer_type', 'is_vip', 'company_name', 'notes']];
  for (let i = 0; i < n; i++) {
    const k = offset + i;
    rows.push([`First${k}`, `Last, ${k}`, `bench${k}@example.com`, `217-555-${String(k % 10000).padStart(4, '0')}`, k % 3 ? 'Residential' : 'Commercial', k % 7 ? 'false' : 'true', k % 5 ? '' : `Co "${k}"`, '']);
  }
  return Buffer.from(stringify(rows), 'utf8');
}

/** REST customer creates, `concurrency` at a time: rows/s. */
async function restCreates(o: ImportBenchOptions, n: number, concurrency = 10): Promise<Measured> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const k = next++;
        const res = await fetch(`${o.base}/api/v1/customers`, {
          method: 'POST',
          headers: { authorization: `Bearer ${o.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ first_name: `Rest${k}`, last_name: 'Create', email: `rest${k}@example.com`, phone: '217-555-0101' }),
        });
        if (res.status !== 200) throw new Error(`REST create: ${res.status} ${await res.text()}`);
      }
    }),
  );
  return measured(n, (performance.now() - started) / 1000, null);
}

async function runImport(o: ImportBenchOptions, file: Buffer): Promise<{ rows: number; seconds: number; rss: { first: number; max: number } }> {
  const form = new FormData();
  form.append('resource', 'customers');
  form.append('file', new Blob([new Uint8Array(file)], { type: 'text/csv' }), 'customers.csv');
  const rss = sampleRss(o.pid);
  const res = await fetch(`${o.base}/api/v1/imports`, { method: 'POST', headers: { authorization: `Bearer ${o.key}` }, body: form });
  const body = (await res.json()) as { data?: { uuid: string } };
  if (res.status !== 202 || !body.data) throw new Error(`import upload: ${res.status} ${JSON.stringify(body).slice(0, 400)}`);
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const s = (await (await fetch(`${o.base}/api/v1/imports/${body.data.uuid}`, { headers: { authorization: `Bearer ${o.key}` } })).json()) as { data: Record<string, any> };
    if (['succeeded', 'failed', 'cancelled'].includes(s.data.status)) {
      const r = rss.stop();
      if (s.data.status !== 'succeeded' || s.data.failed) throw new Error(`import: ${JSON.stringify(s.data)}`);
      return { rows: s.data.created, seconds: (Date.parse(s.data.finished_at) - Date.parse(s.data.started_at)) / 1000, rss: r };
    }
  }
}

async function runExport(o: ImportBenchOptions): Promise<{ rows: number; seconds: number; rss: { first: number; max: number } }> {
  const started = performance.now();
  const res = await fetch(`${o.base}/api/v1/customers/export?format=csv`, { headers: { authorization: `Bearer ${o.exportKey}` } });
  if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status}`);
  let lines = 0;
  let rss: ReturnType<typeof sampleRss> | null = null;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    // Records end with CRLF; a newline inside a field is a bare LF.
    for (const b of chunk) if (b === 13) lines++;
    // From the first tenth on: the rise across the rest of the file.
    if (!rss && lines >= o.exportRows / 10) rss = sampleRss(o.pid);
  }
  const seconds = (performance.now() - started) / 1000;
  return { rows: lines - 1, seconds, rss: rss!.stop() };
}

export async function importRows(o: ImportBenchOptions): Promise<Row[]> {
  o.log(`REST customer create, 10 at a time…`);
  const rest = await restCreates(o, Math.min(2000, Math.max(200, o.importRows / 10)));
  o.log(`  ${rest.rps.toFixed(0)} customers/s`);
  o.log(`import of ${o.importRows} customers…`);
  const file = customerCsv(o.importRows, 0);
  await new Promise((r) => setTimeout(r, 1000));
  const imp = await runImport(o, file);
  o.log(`  ${(imp.rows / imp.seconds).toFixed(0)} rows/s, RSS rise ${((imp.rss.max - imp.rss.first) / 1048576).toFixed(1)} MB`);
  o.log(`export of ${o.exportRows} customers (inserted by SQL)…`);
  const db = new Client({ connectionString: o.url });
  await db.connect();
  try {
    await db.query(
      `insert into customers (uuid, company_uuid, first_name, last_name, email, phone, customer_type, is_vip, company_name, notes, created_at, updated_at)
       select gen_random_uuid(), $1, 'First' || i, 'Last, "' || i || '"', 'x' || i || '@example.com', '217-555-0101', 'Residential', i % 7 = 0, case when i % 5 = 0 then 'Co, ' || i end,
              case when i % 11 = 0 then E'line one\\nline two' end, now() - make_interval(secs => i), now()
       from generate_series(1, $2::int) as i`,
      [o.exportCompany, o.exportRows],
    );
    await db.query('analyze customers');
  } finally {
    await db.end();
  }
  const exp = await runExport(o);
  if (exp.rows !== o.exportRows) throw new Error(`export: ${exp.rows} rows, expected ${o.exportRows}`);
  o.log(`  ${(exp.rows / exp.seconds).toFixed(0)} customers/s, RSS rise after the first tenth ${((exp.rss.max - exp.rss.first) / 1048576).toFixed(1)} MB`);
  return [
    {
      id: 'import_customers',
      label: `Import of ${o.importRows} customers (rows/s)`,
      result: measured(imp.rows, imp.seconds, imp.rss),
      baseline: null,
      sameJson: null,
      rssRise: imp.rss.max - imp.rss.first,
      reference: { id: 'customer_create', label: 'REST customer create, 10 at a time (rows/s)', result: rest },
    },
    { id: 'export_customers_csv', label: `Export of ${o.exportRows} customers to CSV (rows/s)`, result: measured(exp.rows, exp.seconds, exp.rss), baseline: null, sameJson: null, rssRise: exp.rss.max - exp.rss.first },
  ];
}

/** The rows on a running server over the database at `url`: two companies of their own, the sizes unless `quick`. */
export async function importBenchRows(o: { url: string; base: string; pid: number; quick: boolean; importRows?: number; exportRows?: number; log: (m: string) => void }): Promise<Row[]> {
  const [{ initOrm }, { createCompany }] = await Promise.all([import('../src/db/orm'), import('../src/modules/company/company.admin')]);
  const orm = await initOrm(o.url, 2);
  const a = await createCompany(orm.em.fork(), { name: 'Import Co', email: 'i@example.com' });
  const b = await createCompany(orm.em.fork(), { name: 'Export Co', email: 'e@example.com' });
  await orm.close(true);
  return importRows({
    base: o.base,
    key: a.apiKey,
    exportCompany: b.company.uuid,
    exportKey: b.apiKey,
    url: o.url,
    pid: o.pid,
    importRows: o.importRows ?? (o.quick ? 500 : 500_000),
    exportRows: o.exportRows ?? (o.quick ? 5_000 : 1_000_000),
    log: o.log,
  });
}

// Only these rows, on a server of their own: `npx ts-node --transpile-only bench/imports.ts
// [--import-rows 500000] [--export-rows 1000000] [--cpu-prof <dir>]`.
async function main(argv: string[]): Promise<void> {
  const arg = (name: string, fallback: number) => (argv.includes(`--${name}`) ? Number(argv[argv.indexOf(`--${name}`) + 1]) : fallback);
  const [{ openBenchDatabase }, { startApiServer }] = await Promise.all([import('./setup'), import('./server')]);
  const log = (m: string) => process.stderr.write(`[bench:imports] ${m}\n`);
  const db = await openBenchDatabase(log);
  const prof = argv.includes('--cpu-prof') ? ['--cpu-prof', '--cpu-prof-dir', argv[argv.indexOf('--cpu-prof') + 1]] : [];
  const server = await startApiServer(db.serverEnv, 'imports-server', prof);
  try {
    const rows = await importBenchRows({ url: db.url, base: `http://127.0.0.1:${server.port}`, pid: server.pid, quick: false, importRows: arg('import-rows', 500_000), exportRows: arg('export-rows', 1_000_000), log });
    const [imp, exp] = rows;
    process.stdout.write(
      JSON.stringify(
        {
          mode: db.mode,
          importRowsPerSecond: imp.result.rps,
          restCreatesPerSecond: imp.reference!.result.rps,
          importVsRest: imp.result.rps / imp.reference!.result.rps,
          importRssRiseMB: imp.rssRise! / 1048576,
          exportRowsPerSecond: exp.result.rps,
          exportRssRiseMB: exp.rssRise! / 1048576,
        },
        null,
        2,
      ) + '\n',
    );
  } finally {
    await server.stop();
    await db.close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
