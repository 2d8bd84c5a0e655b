import type { EntityManager } from '@mikro-orm/postgresql';
import { lockInvoice } from '../../../src/modules/invoice/invoice.balance';
import { recordFirstPayment } from '../../../src/modules/online-payment/first-payment';
import { actAsStripe, type IntentFacts, recordIntent, stripeContext } from '../../../src/modules/online-payment/online-ledger';
import { PaymentStatus, PaymentType } from '../../../src/modules/payment/payment.entity';
import { createTenant, type Tenant, useDbClient, useTestApp } from '../../helpers/app';
import { makeInvoice, pay } from '../../helpers/billing';

// The short path of a PaymentIntent's first event (src/modules/online-payment/first-payment.ts)
// against the ledger's (recordIntent, then syncInvoice): the same facts on two companies set up
// alike, one through each path, must leave the same payments, invoices, jobs and events (ids and
// instants aside); where the short path does not apply, it writes nothing.

const t = useTestApp();
const db = useDbClient();

type Path = 'short' | 'ledger';

const card = (o: Partial<IntentFacts> = {}): IntentFacts => ({ intent: 'pi_same', amountCents: 10000, surchargeCents: 0, type: PaymentType.CREDIT_CARD, method: 'visa', feeCents: 320, charge: 'ch_same', session: 'cs_same', ...o });
const ach = (o: Partial<IntentFacts> = {}): IntentFacts => card({ type: PaymentType.ACH, method: 'bank_transfer', feeCents: 0, ...o });

/** The facts recorded on the invoice in one transaction by one path, as the webhook runs it; the short path's answer. */
async function record(path: Path, tenant: Tenant, invoiceUuid: string, facts: IntentFacts, status: PaymentStatus): Promise<boolean> {
  const em = t.orm.em.fork({ clear: true });
  actAsStripe(em, 'evt_same');
  return em.transactional(async (txEm) => {
    const tx = stripeContext(txEm as EntityManager, tenant.companyUuid, 'evt_same');
    if (path === 'short') return recordFirstPayment(tx, invoiceUuid, facts, status, 'acct_same');
    await recordIntent(tx, await lockInvoice(tx, invoiceUuid), facts, status, 'acct_same');
    return true;
  });
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

/** The company's payments, invoices, jobs and the events after `since`, in their order. */
async function state(tenant: Tenant, since: number) {
  const rows = async (sql: string) => plain((await db.query(sql, [tenant.companyUuid])).rows);
  return {
    payments: await rows(`select * from payments where company_uuid = $1 order by payment_number::int`),
    invoices: await rows(`select * from invoices where company_uuid = $1 order by invoice_number`),
    jobs: await rows(`select * from jobs where company_uuid = $1 order by job_number::int`),
    events: plain((await db.query(`select type, resource, actor, row, previous from events where company_uuid = $1 and id > $2 order by id`, [tenant.companyUuid, since])).rows),
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
  const since = await lastEvent();
  const answered = await record(path, tenant, invoiceUuid, facts, status);
  return { answered, state: await state(tenant, since) };
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
    expect(short.answered).toBe(true);
    expect((short.state.events as unknown[]).length).toBeGreaterThan(0);
    expect(short.state).toEqual(ledger.state);
  });

  it('leaves an intent that has a payment, and a payment beyond the balance, to the ledger, having written nothing', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    await pay(t, a, inv.uuid, 30);
    const since = await lastEvent();
    const before = await state(a, since);
    expect(await record('short', a, inv.uuid, card(), PaymentStatus.COMPLETED)).toBe(false);
    expect(await state(a, since)).toEqual(before);
    expect(await record('ledger', a, inv.uuid, card({ amountCents: 5000 }), PaymentStatus.PENDING)).toBe(true);
    const known = await state(a, since);
    expect(await record('short', a, inv.uuid, card({ amountCents: 5000 }), PaymentStatus.COMPLETED)).toBe(false);
    expect(await state(a, since)).toEqual(known);
  });
});
