import 'reflect-metadata';
import { Client } from 'pg';
import { initOrm } from '../src/db/orm';
import { createCompany } from '../src/modules/company/company.admin';
import { assignPositions } from '../src/modules/event/event.maintenance';
import { TRACKED } from '../migrations/Migration20261125000010_events';
import { openBenchDatabase } from './setup';
import { startApiServer } from './server';
import { median } from './procs';
import { numberArg, rate } from './args';

// `npx ts-node --transpile-only bench/events.ts [--rounds 3] [--n 300]` (docs/events.md), against
// the server built as `npm start` runs it:
// the cost of the event log on writes, and the feed's reading rate, in one run.
// - Customer and invoice creation over HTTP (8 requests in flight) with the event triggers on,
//   and with them disabled, alternating, in the same database; the median rate of each.
// - Reading the feed: ~50,000 events paged 1,000 at a time by one reader (GET /api/v1/events).

const log = (m: string) => process.stderr.write(`[bench:events] ${m}\n`);

async function main(): Promise<void> {
  const rounds = numberArg('rounds', 3);
  const n = numberArg('n', 300);
  const db = await openBenchDatabase(log);
  // The server as `npm start` runs it, in a process of its own (it migrates the database).
  const server = await startApiServer(db.serverEnv, 'events-server');
  const orm = await initOrm(db.url, 2);
  try {
    const base = `http://127.0.0.1:${server.port}/api/v1`;
    const { apiKey } = await createCompany(orm.em.fork(), { name: 'Bench Events', email: 'bench@example.com' });
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const post = async (path: string, body: object) => {
      const res = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: { uuid: string; customer_uuid: string } }).data;
    };
    const customer = await post('/customers', { first_name: 'Job', last_name: 'Owner' });
    const job = await post('/jobs', { customer_uuid: customer.uuid, title: 'Bench' });
    const sql = new Client({ connectionString: db.url });
    await sql.connect();
    const triggers = async (on: boolean) => {
      for (const t of TRACKED) for (const e of ['insert', 'update', 'delete']) await sql.query(`alter table ${t.table} ${on ? 'enable' : 'disable'} trigger ${t.table}_events_${e}`);
    };
    const results: Record<string, number[]> = { 'customers on': [], 'customers off': [], 'invoices on': [], 'invoices off': [] };
    for (let r = 0; r < rounds; r++) {
      for (const on of r % 2 ? [false, true] : [true, false]) {
        await triggers(on);
        const tag = on ? 'on' : 'off';
        results[`customers ${tag}`].push(await rate(n, 8, async (i) => void (await post('/customers', { first_name: `B${i}`, last_name: 'Bench', email: `b${i}@example.com` }))));
        results[`invoices ${tag}`].push(
          await rate(n, 8, async () => void (await post('/invoices', { job_uuid: job.uuid, customer_uuid: job.customer_uuid, due_date: '2099-12-31', line_items: [{ description: 'Work', quantity: 1, unit_price: 100 }] }))),
        );
        log(`round ${r + 1} events ${tag}: customers ${results[`customers ${tag}`].at(-1)!.toFixed(0)}/s, invoices ${results[`invoices ${tag}`].at(-1)!.toFixed(0)}/s`);
      }
    }
    await triggers(true);

    // ~50,000 events: updates of the bench's customers, in statements of a few thousand rows.
    const [{ count }] = (await sql.query('select count(*)::int as count from customers')).rows;
    const updates = Math.ceil(50_000 / count);
    for (let i = 0; i < updates; i++) await sql.query(`update customers set notes = 'v${i}'`);
    await assignPositions(orm);
    const [{ total }] = (await sql.query('select count(*)::int as total from events')).rows;
    let cursor = '';
    let read = 0;
    const start = process.hrtime.bigint();
    for (;;) {
      const res = await fetch(`${base}/events?limit=1000${cursor ? `&after=${cursor}` : ''}`, { headers });
      const body = (await res.json()) as { data: { events: unknown[]; next_cursor: string; has_more: boolean } };
      read += body.data.events.length;
      cursor = body.data.next_cursor;
      if (!body.data.has_more) break;
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    await sql.end();

    const ratio = (what: string) => median(results[`${what} on`]) / median(results[`${what} off`]);
    const out = {
      mode: db.mode,
      rounds,
      requestsPerRound: n,
      customersPerSecond: { events: median(results['customers on']), without: median(results['customers off']), ratio: ratio('customers') },
      invoicesPerSecond: { events: median(results['invoices on']), without: median(results['invoices off']), ratio: ratio('invoices') },
      feed: { events: read, total, seconds, eventsPerSecond: read / seconds },
    };
    process.stdout.write(JSON.stringify(out, null, 2) + '\n');
  } finally {
    await server.stop();
    await orm.close(true);
    await db.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
