import { Client } from 'pg';
import { StripeStandIn } from '../test/helpers/stripe-stand-in';
import type { LoadVariant } from './load';
import type { Measured, Row } from './report';
import type { Tenant } from './setup';

// The Stripe webhook row (docs/payments.md): invoices of the big company paid through Checkout on
// the Stripe stand-in (test/helpers/stripe-stand-in.ts, a stand-in for the external service: not
// Stripe), then each one's `checkout.session.completed`, signed as Stripe signs it, delivered once
// to POST /api/v1/payment_webhooks/stripe at the run's connections. Each event is verified, looks
// its PaymentIntent up in the stand-in and records its payment in one transaction. Afterwards every
// payment must be right: one Completed payment per PaymentIntent, of its amount, and every invoice Paid.

type Run = (variants: LoadVariant[], extra: { amount: number; durationSeconds: undefined }) => Promise<Measured>;

/** `n` at a time of `items`, in order. */
async function pool<T, R>(items: T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  }));
  return out;
}

export async function stripeRow(o: { base: string; url: string; stand: StripeStandIn; big: Tenant; jobs: { uuid: string; customer_uuid: string }[]; events: number; rounds: number; run: Run; log: (m: string) => void }): Promise<Row> {
  const call = async (method: string, path: string, body?: object) => {
    const res = await fetch(o.base + path, { method, headers: { authorization: `Bearer ${o.big.key}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    const json = (await res.json()) as { data?: any; error?: unknown };
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json.error)}`);
    return json.data;
  };
  await call('PUT', '/api/v1/companies/me/payment_settings', { stripe_account_id: 'acct_benchstripe1' });
  const runs: Measured[] = [];
  const invoices: string[] = [];
  for (let round = 0; round < o.rounds; round++) {
    // Invoices, their sessions, each paid in the stand-in: not timed.
    const made = await pool(Array.from({ length: o.events }, (_, i) => o.jobs[i % o.jobs.length]), 8, async (j) => {
      const inv = await call('POST', '/api/v1/invoices', { job_uuid: j.uuid, customer_uuid: j.customer_uuid, status: 'Pending', due_date: '2031-01-31', line_items: [{ description: 'Repair', quantity: 1, unit_price: 240, tax_rate: 0 }] });
      const session = await call('POST', `/api/v1/invoices/${inv.uuid}/checkout`, {});
      o.stand.pay(session.session_id);
      return { invoice: inv.uuid as string, session: session.session_id as string };
    });
    invoices.push(...made.map((m) => m.invoice));
    const variants: LoadVariant[] = made.map((m) => {
      const { body, signature } = o.stand.signed(o.stand.sessionEvent('checkout.session.completed', m.session));
      return { method: 'POST', path: '/api/v1/payment_webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body };
    });
    // Each event exactly once.
    const r = await o.run(variants, { amount: variants.length, durationSeconds: undefined });
    runs.push(r);
    o.log(`  round ${round + 1}: ${r.rps.toFixed(1)} events/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.non2xx} non-2xx`);
  }
  const pg = new Client({ connectionString: o.url });
  await pg.connect();
  let ok = false;
  let note = '';
  try {
    const [p] = (
      await pg.query(
        `select count(*)::int as payments, count(distinct transaction_id)::int as intents,
                count(*) filter (where status = 'Completed' and amount = 240 and refunded_amount = 0)::int as right
           from payments where invoice_uuid = any($1::uuid[]) and deleted_at is null`,
        [invoices],
      )
    ).rows;
    const [i] = (await pg.query(`select count(*) filter (where status = 'Paid')::int as paid from invoices where uuid = any($1::uuid[])`, [invoices])).rows;
    ok = p.payments === invoices.length && p.intents === invoices.length && p.right === invoices.length && i.paid === invoices.length;
    note = ok ? `all ${invoices.length} payments right, invoices Paid` : `payments ${p.payments}, intents ${p.intents}, right ${p.right}, Paid ${i.paid} of ${invoices.length}`;
  } finally {
    await pg.end();
  }
  const mid = [...runs].sort((a, b) => a.rps - b.rps)[Math.floor((runs.length - 1) / 2)];
  return { id: 'stripe_webhooks', label: `Stripe webhooks, checkout.session.completed (stand-in)`, result: mid, baseline: null, sameJson: null, verified: { ok, note } };
}
