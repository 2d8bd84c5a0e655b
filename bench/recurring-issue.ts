import { Client } from 'pg';
import { initOrm } from '../src/db/orm';
import { issueDue } from '../src/modules/recurring/recurring.generate';
import type { LoadVariant } from './load';
import type { Measured, Row } from './report';
import type { Tenant } from './setup';

// The recurring invoices row (docs/recurring-work.md): `count` agreements of the big company fall
// due on one day, and the background task's own function (issueDue) invoices them, as a server's
// or a worker's task does each minute; its rate (invoices per second) is judged against the REST
// invoice create of one company, run right before and right after it. The day is in 2030, so the
// server's own task (which runs on today's clock) never takes them.

const DAY = '2030-01-01';

type Run = (variants: LoadVariant[]) => Promise<Measured>;

export async function recurringRow(o: { base: string; url: string; big: Tenant; count: number; createVariants: LoadVariant[]; run: Run; log: (m: string) => void }): Promise<Row> {
  const pg = new Client({ connectionString: o.url });
  await pg.connect();
  try {
    const [job] = (await pg.query(`select uuid, customer_uuid from jobs where company_uuid = $1 and deleted_at is null order by created_at limit 1`, [o.big.companyUuid])).rows;
    // One agreement through the API (its rule, lines and defaults as any client makes them)...
    const res = await fetch(`${o.base}/api/v1/recurring_invoices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${o.big.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ customer_uuid: job.customer_uuid, job_uuid: job.uuid, rrule: 'FREQ=YEARLY', starts_on: DAY, line_items: [{ description: 'Yearly service', quantity: 1, unit_price: 189, tax_rate: 8.25 }] }),
    });
    const template = ((await res.json()) as { data?: { uuid: string } }).data;
    if (res.status !== 200 || !template) throw new Error(`recurring invoice create answered ${res.status}`);
    // ...then copied in SQL onto other jobs of the company, up to `count`, all due on DAY.
    await pg.query(
      `insert into recurring_invoices (uuid, company_uuid, customer_uuid, location_uuid, job_uuid, rrule, starts_on, timezone, line_items, discount_amount, notes, terms, due_days, auto_send, status, next_issue_date, invoices_count, created_at, updated_at)
       select gen_random_uuid(), t.company_uuid, j.customer_uuid, null, j.uuid, t.rrule, t.starts_on, t.timezone, t.line_items, t.discount_amount, t.notes, t.terms, t.due_days, false, 'active', t.next_issue_date, 0, now(), now()
       from recurring_invoices t, (select uuid, customer_uuid from jobs where company_uuid = $1 and deleted_at is null and uuid <> $3 order by created_at limit $2) j
       where t.uuid = $4`,
      [o.big.companyUuid, o.count - 1, job.uuid, template.uuid],
    );
    await pg.query('analyze recurring_invoices');
    o.log(`recurring invoices: ${o.count} agreements due on ${DAY}…`);
    const before = await o.run(o.createVariants);
    const orm = await initOrm(o.url, 4);
    let created = 0;
    const started = process.hrtime.bigint();
    try {
      created = await issueDue(orm, new Date(`${DAY}T20:00:00Z`));
    } finally {
      await orm.close(true);
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const after = await o.run(o.createVariants);
    // Every agreement invoiced exactly once, on DAY.
    const [check] = (
      await pg.query(
        `select count(*)::int as agreements, count(*) filter (where n = 1)::int as once from (select r.uuid, count(i.uuid) as n from recurring_invoices r left join invoices i on i.recurring_invoice_uuid = r.uuid and i.issue_date = $2 where r.company_uuid = $1 and r.starts_on = $2 group by r.uuid) x`,
        [o.big.companyUuid, DAY],
      )
    ).rows;
    const ok = created === o.count && check.agreements === o.count && check.once === o.count;
    const result: Measured = { requests: created, seconds, rps: created / seconds, p50: 0, p99: 0, non2xx: 0, statusCodes: {}, errors: ok ? 0 : 1, rssMax: null, rssBefore: null };
    const reference: Measured = { ...after, rps: (before.rps + after.rps) / 2 };
    o.log(`  ${created} invoices in ${seconds.toFixed(1)} s: ${result.rps.toFixed(1)}/s; invoice create before ${before.rps.toFixed(1)}, after ${after.rps.toFixed(1)} req/s${ok ? '' : '; NOT every agreement invoiced once'}`);
    return {
      id: 'recurring_issue',
      label: `Recurring invoices, ${o.count} due on one day (the task)`,
      result,
      baseline: null,
      sameJson: null,
      reference: { id: 'invoice_create_one', label: 'REST invoice create, one company (before and after)', result: reference },
      verified: { ok, note: ok ? `each of ${o.count} invoiced once` : `${check.once} of ${o.count} invoiced once` },
    };
  } finally {
    await pg.end();
  }
}
