import type { EntityManager } from '@mikro-orm/postgresql';
import { lockInvoice } from '../../../src/modules/invoice/invoice.balance';
import { usePreparedStatements } from '../../../src/data/prepared';
import { recordFirstPayment } from '../../../src/modules/online-payment/first-payment';
import { actAsStripe, type IntentFacts, recordIntent, stripeContext } from '../../../src/modules/online-payment/online-ledger';
import { PaymentStatus, PaymentType } from '../../../src/modules/payment/payment.entity';
import { Client } from 'pg';
import { createTenant, type Tenant, useDbClient, useTestApp, workerDatabase } from '../../helpers/app';
import { makeInvoice, pay } from '../../helpers/billing';

// The short path of a PaymentIntent's first event (src/modules/online-payment/first-payment.ts, the
// database function stripe_first_payment of migration 0044: the ledger's rule in SQL) against the
// ledger's (recordIntent, then syncInvoice, in TypeScript): the same facts on two companies set up
// alike, one through each path, must leave the same payments, invoices, jobs and events (ids and
// instants aside); where the short path does not apply, it writes nothing, not even the event's id.

const t = useTestApp();
const db = useDbClient();

type Path = 'short' | 'ledger';

const card = (o: Partial<IntentFacts> = {}): IntentFacts => ({ intent: 'pi_same', amountCents: 10000, surchargeCents: 0, type: PaymentType.CREDIT_CARD, method: 'visa', feeCents: 320, charge: 'ch_same', session: 'cs_same', ...o });
const ach = (o: Partial<IntentFacts> = {}): IntentFacts => card({ type: PaymentType.ACH, method: 'bank_transfer', feeCents: 0, ...o });

/**
 * The facts recorded on the invoice by one path, as the webhook runs it: the short path's one
 * statement (the event `evt_same`, forgotten first, so that each call is its first delivery), or the
 * ledger's transaction. The short path's answer ('handled', 'duplicate', or null: left to the ledger).
 */
async function record(path: Path, tenant: Tenant, invoiceUuid: string, facts: IntentFacts, status: PaymentStatus, o: { forget?: boolean } = {}): Promise<string | null> {
  const em = t.orm.em.fork({ clear: true });
  if (path === 'short') {
    if (o.forget !== false) await db.query(`delete from stripe_events where id = 'evt_same'`);
    return recordFirstPayment(em, tenant.companyUuid, { id: 'evt_same', type: 'checkout.session.completed' }, invoiceUuid, facts, status, 'acct_same');
  }
  actAsStripe(em, 'evt_same');
  return em.transactional(async (txEm) => {
    const tx = stripeContext(txEm as EntityManager, tenant.companyUuid, 'evt_same');
    await recordIntent(tx, await lockInvoice(tx, invoiceUuid), facts, status, 'acct_same');
    return 'handled';
  });
}

/** The tenant's payment settings name the account `acct_same` (taken from the tenant that had it). */
async function ownAccount(tenant: Tenant): Promise<void> {
  await db.query(`update payment_settings set stripe_account_id = null where stripe_account_id = 'acct_same'`);
  await db.query(`insert into payment_settings (company_uuid, stripe_account_id) values ($1, 'acct_same') on conflict (company_uuid) do update set stripe_account_id = 'acct_same'`, [tenant.companyUuid]);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;
/** Ids and instants as their kinds, so that two companies' rows compare. */
function plain(v: unknown): unknown {
  if (v instanceof Date) return '<instant>';
  if (typeof v === 'string') return UUID.test(v) ? '<uuid>' : INSTANT.test(v) ? '<instant>' : v;
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

/**
 * The company's payments, invoices, jobs and the events after `since`: each transaction's events
 * together, in the transactions' order, and within one by resource and type. The two paths write
 * the same events in another order within the transaction (the short path writes the invoice before
 * the payment: migration 0045); `order` is each transaction's resources in the order written.
 */
async function state(tenant: Tenant, since: number) {
  const rows = async (sql: string) => plain((await db.query(sql, [tenant.companyUuid])).rows);
  const events = (
    await db.query(
      `select type, resource, actor, row, previous, dense_rank() over (order by first) as tx
         from (select *, min(id) over (partition by xid) as first from events where company_uuid = $1 and id > $2) as e order by id`,
      [tenant.companyUuid, since],
    )
  ).rows as { type: string; resource: string; tx: string }[];
  const order = [...new Set(events.map((e) => e.tx))].map((tx) => events.filter((e) => e.tx === tx).map((e) => e.resource));
  const sorted = [...events].sort((a, b) => Number(a.tx) - Number(b.tx) || a.resource.localeCompare(b.resource) || a.type.localeCompare(b.type)).map(({ tx: _tx, ...e }) => e);
  return {
    state: {
      payments: await rows(`select * from payments where company_uuid = $1 order by payment_number::int`),
      invoices: await rows(`select * from invoices where company_uuid = $1 order by invoice_number`),
      jobs: await rows(`select * from jobs where company_uuid = $1 order by job_number::int`),
      events: plain(sorted),
    },
    order,
  };
}

const lastEvent = async () => Number((await db.query(`select coalesce(max(id), 0) as id from events`)).rows[0].id);

/**
 * Sets up a company with `setup` (the invoice to pay), records `facts` by `path`, and returns what
 * the path answered and the company's state; updated_at instants compare as equal or not.
 */
async function run(path: Path, setup: (tenant: Tenant) => Promise<string>, facts: IntentFacts, status: PaymentStatus) {
  const tenant = await createTenant(t, { name: 'Same Co' });
  const invoiceUuid = await setup(tenant);
  if (path === 'short') await ownAccount(tenant);
  const since = await lastEvent();
  const answered = await record(path, tenant, invoiceUuid, facts, status);
  const now = await state(tenant, since);
  return { answered, state: now.state, order: now.order };
}

const scenarios: Array<[string, (tenant: Tenant) => Promise<string>, IntentFacts, PaymentStatus]> = [
  ['a card payment of the whole balance: the invoice and its job paid', async (a) => (await makeInvoice(t, a)).uuid, card(), PaymentStatus.COMPLETED],
  ['a card payment of part of the balance', async (a) => (await makeInvoice(t, a)).uuid, card({ amountCents: 4000 }), PaymentStatus.COMPLETED],
  ['the rest after a cheque', async (a) => {
    const inv = await makeInvoice(t, a);
    await pay(t, a, inv.uuid, 60);
    return inv.uuid;
  }, card({ amountCents: 4000 }), PaymentStatus.COMPLETED],
  ['a bank payment, Pending: the invoice unchanged', async (a) => (await makeInvoice(t, a)).uuid, ach(), PaymentStatus.PENDING],
  ['a surcharge passed on, no fee known', async (a) => (await makeInvoice(t, a)).uuid, card({ surchargeCents: 330, feeCents: 0, charge: null }), PaymentStatus.COMPLETED],
  ['the last unpaid invoice of a job', async (a) => {
    const first = await makeInvoice(t, a);
    await pay(t, a, first.uuid, 100);
    return (await makeInvoice(t, a, { job_uuid: first.job_uuid })).uuid;
  }, card(), PaymentStatus.COMPLETED],
  ['one invoice of a job whose other invoice is unpaid', async (a) => {
    const first = await makeInvoice(t, a);
    return (await makeInvoice(t, a, { job_uuid: first.job_uuid })).uuid;
  }, card(), PaymentStatus.COMPLETED],
  ['an invoice of no job', async (a) => {
    const inv = await makeInvoice(t, a);
    await db.query(`update invoices set job_uuid = null where uuid = $1`, [inv.uuid]);
    return inv.uuid;
  }, card(), PaymentStatus.COMPLETED],
];

describe('Stripe: the short path of a first payment', () => {
  it.each(scenarios)('writes what the ledger writes: %s', async (_name, setup, facts, status) => {
    const short = await run('short', setup, facts, status);
    const ledger = await run('ledger', setup, facts, status);
    expect(short.answered).toBe('handled');
    expect((short.state.events as unknown[]).length).toBeGreaterThan(0);
    expect(short.state).toEqual(ledger.state);
    // One transaction; the short path writes the invoice, then the payment, then the job (its
    // number's lock taken after the invoice's write, and before the job's, as the ledger takes it).
    expect(short.order).toHaveLength(1);
    const rank = { invoice: 0, payment: 1, job: 2 } as Record<string, number>;
    const ranks = short.order[0].map((r) => rank[r]);
    expect(ranks).toContain(1);
    expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
  });

  it('writes the same as an unnamed statement (DB_PREPARED_STATEMENTS=false, as through PgBouncer)', async () => {
    const [, setup, facts, status] = scenarios[0];
    usePreparedStatements(false);
    try {
      const short = await run('short', setup, facts, status);
      expect(short.answered).toBe('handled');
      expect(short.state).toEqual((await run('ledger', setup, facts, status)).state);
    } finally {
      usePreparedStatements(true);
    }
  });

  it('leaves an intent that has a payment, and a payment beyond the balance, to the ledger, having written nothing', async () => {
    const a = await createTenant(t);
    await ownAccount(a);
    const inv = await makeInvoice(t, a);
    await pay(t, a, inv.uuid, 30);
    const since = await lastEvent();
    const before = await state(a, since);
    expect(await record('short', a, inv.uuid, card(), PaymentStatus.COMPLETED)).toBeNull();
    expect(await state(a, since)).toEqual(before);
    expect(await record('ledger', a, inv.uuid, card({ amountCents: 5000 }), PaymentStatus.PENDING)).toBe('handled');
    const known = await state(a, since);
    expect(await record('short', a, inv.uuid, card({ amountCents: 5000 }), PaymentStatus.COMPLETED)).toBeNull();
    expect(await state(a, since)).toEqual(known);
    // Nor the event's id: the ledger handles it next.
    expect((await db.query(`select id from stripe_events where id = 'evt_same'`)).rows).toEqual([]);
  });

  it("leaves a deleted invoice, and another company's, to the ledger, having written nothing", async () => {
    const a = await createTenant(t);
    await ownAccount(a);
    const b = await createTenant(t);
    const deleted = await makeInvoice(t, a);
    await db.query(`update invoices set deleted_at = now() where uuid = $1`, [deleted.uuid]);
    const theirs = await makeInvoice(t, b);
    const since = await lastEvent();
    const before = await state(a, since);
    expect(await record('short', a, deleted.uuid, card(), PaymentStatus.COMPLETED)).toBeNull();
    expect(await record('short', a, theirs.uuid, card(), PaymentStatus.COMPLETED)).toBeNull();
    expect(await state(a, since)).toEqual(before);
    expect((await db.query(`select count(*)::int as n from payments where invoice_uuid = $1`, [theirs.uuid])).rows[0].n).toBe(0);
  });

  it("leaves an account that is not the company's (any more) to the ledger, having written nothing", async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const since = await lastEvent();
    const before = await state(a, since);
    // No account yet; then one, moved to another company.
    expect(await record('short', a, inv.uuid, card(), PaymentStatus.COMPLETED)).toBeNull();
    await ownAccount(a);
    await ownAccount(await createTenant(t));
    expect(await record('short', a, inv.uuid, card(), PaymentStatus.COMPLETED)).toBeNull();
    expect(await state(a, since)).toEqual(before);
    expect((await db.query(`select id from stripe_events where id = 'evt_same'`)).rows).toEqual([]);
  });

  it("records the event's id with its payment, and a repeated delivery writes nothing", async () => {
    const a = await createTenant(t);
    await ownAccount(a);
    const inv = await makeInvoice(t, a);
    expect(await record('short', a, inv.uuid, card({ amountCents: 4000 }), PaymentStatus.COMPLETED)).toBe('handled');
    expect((await db.query(`select type, account, company_uuid, outcome from stripe_events where id = 'evt_same'`)).rows).toEqual([
      { type: 'checkout.session.completed', account: 'acct_same', company_uuid: a.companyUuid, outcome: 'handled' },
    ]);
    const since = await lastEvent();
    const once = await state(a, since);
    expect(await record('short', a, inv.uuid, card({ amountCents: 4000 }), PaymentStatus.COMPLETED, { forget: false })).toBe('duplicate');
    expect(await state(a, since)).toEqual(once);
  });

  it("takes the payment number before the job's lock, as a payment made through the API does: the two wait, never deadlock", async () => {
    const a = await createTenant(t);
    await ownAccount(a);
    const first = await makeInvoice(t, a);
    const other = await makeInvoice(t, a, { job_uuid: first.job_uuid });
    // What a payment through the API holds at its syncJobPaidAt: the number's row (taken), then the
    // job's. Here a transaction takes the number, waits until the statement waits for it, then
    // locks the job: with the job locked before the number, the statement would hold it, and the
    // two would deadlock (one of them refused after deadlock_timeout).
    const holder = new Client({ connectionString: await workerDatabase() });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query(
        `insert into company_sequences (company_uuid, name, value) values ($1, 'payment_number', 0)
         on conflict (company_uuid, name) do update set value = company_sequences.value`,
        [a.companyUuid],
      );
      const recorded = record('short', a, other.uuid, card(), PaymentStatus.COMPLETED);
      let waited = false;
      for (let i = 0; i < 400 && !waited; i++) {
        waited = !!(await db.query(`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%stripe_first_payment%'`)).rowCount;
        if (!waited) await new Promise((r) => setTimeout(r, 25));
      }
      expect(waited).toBe(true);
      await holder.query(`select 1 from jobs where uuid = $1 for update`, [first.job_uuid]);
      await holder.query('commit');
      expect(await recorded).toBe('handled');
    } finally {
      await holder.end();
    }
  });
});
