import request from 'supertest';
import type Stripe from 'stripe';
import { rest, Tenant, TestApp } from './app';
import { StripeStandIn } from './stripe-stand-in';

// Online payments in tests: a company connected to an account of the Stripe stand-in, checkout
// through the API, events delivered to the webhook as Stripe would.

export const WEBHOOK = '/api/v1/payment_webhooks/stripe';

let accounts = 0;

/** Connects the company to a new connected account id; returns it. */
export async function connect(t: TestApp, tenant: Tenant, o: Record<string, unknown> = {}): Promise<string> {
  const account = `acct_test${++accounts}${Date.now().toString(36)}`;
  const res = await rest(t, tenant).put('/companies/me/payment_settings', { stripe_account_id: account, ...o });
  if (res.status !== 200) throw new Error(`payment settings: ${JSON.stringify(res.body)}`);
  return account;
}

export async function checkout(t: TestApp, tenant: Tenant, invoiceUuid: string, body: object = {}) {
  const res = await rest(t, tenant).post(`/invoices/${invoiceUuid}/checkout`, body);
  if (res.status !== 200) throw new Error(`checkout: ${JSON.stringify(res.body)}`);
  return res.body.data as { url: string; session_id: string; expires_at: string };
}

/** Delivers one event as Stripe does (its own signature unless one is given). */
export function deliver(t: TestApp, stand: StripeStandIn, event: Stripe.Event, o: { secret?: string; timestamp?: number; signature?: string } = {}) {
  const { body, signature } = stand.signed(event, o);
  return request(t.app).post(WEBHOOK).set('Content-Type', 'application/json').set('Stripe-Signature', o.signature ?? signature).send(body);
}

/** Registers the stand-in's hooks: started before the app (its address goes in the app's environment). */
export function useStandIn(): StripeStandIn {
  const stand = new StripeStandIn();
  beforeAll(() => stand.start());
  beforeEach(() => stand.reset());
  afterAll(() => stand.stop());
  return stand;
}
