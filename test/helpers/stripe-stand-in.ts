import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

// A STAND-IN FOR STRIPE, for tests and the benchmark only: a small local HTTP server that answers
// the few Stripe API endpoints the server calls (Checkout Sessions, PaymentIntents, Refunds,
// Accounts, Account Links) as Stripe does, and makes webhook events signed as Stripe signs them
// (the official library's generateTestHeaderString). It is not Stripe; docs/payments.md tells how
// to try the server against Stripe's own test mode.

export const STAND_IN_SECRET_KEY = 'sk_test_stand_in';
export const STAND_IN_WEBHOOK_SECRET = 'whsec_stand_in_secret';

export interface Call {
  method: string;
  path: string;
  account: string | null;
  idempotencyKey: string | null;
  params: Record<string, any>;
}

interface Intent {
  id: string;
  account: string;
  amount: number;
  metadata: Record<string, string>;
  charge: string;
  refunded: number;
  brand: string;
  ach: boolean;
  fee: number;
}

export interface SessionOptions {
  /** Pay by bank account: completed 'unpaid', then async_payment_succeeded or _failed. */
  ach?: boolean;
  /** Stripe's fee in cents (default 2.9% + 30¢ of the amount). */
  fee?: number;
}

/** Stripe's form encoding (`a[b][0][c]=v`) into nested objects; numeric keys stay object keys. */
function parseForm(raw: string): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const path = key.replace(/\]/g, '').split('[');
    let node = out;
    for (const part of path.slice(0, -1)) node = node[part] ??= {};
    node[path[path.length - 1]] = value;
  }
  return out;
}

/** A call held by hold(): it has arrived; release() lets the stand-in answer it. */
export interface Held {
  arrived: Promise<void>;
  release(): void;
}

export class StripeStandIn {
  readonly calls: Call[] = [];
  private readonly holds = new Map<string, { arrive: () => void; released: Promise<void> }[]>();
  private readonly failures = new Map<string, { times: number; after: boolean }>();
  readonly sessions = new Map<string, any>();
  readonly intents = new Map<string, Intent>();
  private server!: http.Server;
  private seq = 0;
  private readonly replay = new Map<string, { status: number; body: unknown }>();
  private readonly signer = new Stripe(STAND_IN_SECRET_KEY);
  base = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const url = new URL(req.url ?? '/', 'http://stand-in');
        const params = parseForm(req.method === 'GET' ? url.search.slice(1) : raw);
        const call: Call = { method: req.method ?? 'GET', path: url.pathname, account: (req.headers['stripe-account'] as string) ?? null, idempotencyKey: (req.headers['idempotency-key'] as string) ?? null, params };
        const hold = this.holds.get(call.path)?.shift();
        if (hold) hold.arrive();
        void (hold?.released ?? Promise.resolve()).then(() => {
          const failure = this.failures.get(call.path);
          if (failure && failure.times > 0) {
            failure.times--;
            // A failure Stripe's client cannot tell from a lost answer: made (after) or not (before).
            if (failure.after) this.answer(call);
            res.writeHead(500, { 'content-type': 'application/json', 'stripe-should-retry': 'false' });
            res.end(JSON.stringify({ error: { type: 'api_error', message: 'stand-in: failure asked by the test' } }));
            return;
          }
          const answer = this.answer(call);
          res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': `req_${++this.seq}` });
          res.end(JSON.stringify(answer.body));
        });
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The server's environment for this stand-in. */
  env(): Record<string, string> {
    return { STRIPE_SECRET_KEY: STAND_IN_SECRET_KEY, STRIPE_WEBHOOK_SECRET: STAND_IN_WEBHOOK_SECRET, STRIPE_API_BASE: this.base };
  }

  /** Holds the next call to `path` until release(): what the server does meanwhile shows it waits on nothing. */
  hold(path: string): Held {
    let arrive!: () => void;
    let release!: () => void;
    const arrived = new Promise<void>((r) => (arrive = r));
    const released = new Promise<void>((r) => (release = r));
    this.holds.set(path, [...(this.holds.get(path) ?? []), { arrive, released }]);
    return { arrived, release };
  }

  /** The next `times` calls to `path` answer 500: not made (`after` false) or made with the answer lost (`after` true). */
  fail(path: string, times: number, o: { after?: boolean } = {}): void {
    this.failures.set(path, { times, after: !!o.after });
  }

  reset(): void {
    this.holds.clear();
    this.failures.clear();
    this.calls.length = 0;
    this.sessions.clear();
    this.intents.clear();
    this.replay.clear();
  }

  private id(prefix: string): string {
    return `${prefix}_${(++this.seq).toString(36).padStart(8, '0')}`;
  }

  private answer(call: Call): { status: number; body: unknown } {
    // Stripe's idempotency: the same key on a POST answers the first answer again, doing nothing.
    const key = call.method === 'POST' && call.idempotencyKey ? `${call.account} ${call.path} ${call.idempotencyKey}` : null;
    if (key && this.replay.has(key)) return this.replay.get(key)!;
    this.calls.push(call);
    const out = this.route(call);
    if (key && out.status < 500) this.replay.set(key, out);
    return out;
  }

  private route(c: Call): { status: number; body: unknown } {
    const now = Math.floor(Date.now() / 1000);
    const error = (status: number, message: string) => ({ status, body: { error: { type: 'invalid_request_error', message } } });
    if (c.method === 'POST' && c.path === '/v1/checkout/sessions') {
      if (!c.account) return error(400, 'Stripe-Account is required here');
      const lines = Object.values(c.params.line_items ?? {}) as { quantity?: string; price_data?: { unit_amount?: string } }[];
      const amount = lines.reduce((sum, l) => sum + Number(l.price_data?.unit_amount ?? 0) * Number(l.quantity ?? 1), 0);
      const session = {
        id: this.id('cs_test'),
        object: 'checkout.session',
        mode: c.params.mode,
        status: 'open',
        payment_status: 'unpaid',
        amount_total: amount,
        currency: c.params.line_items?.[0]?.price_data?.currency,
        client_reference_id: c.params.client_reference_id ?? null,
        metadata: c.params.metadata ?? {},
        payment_intent: null as string | null,
        payment_method_types: c.params.allowed_payment_method_types ? Object.values(c.params.allowed_payment_method_types) : ['card'],
        success_url: c.params.success_url,
        cancel_url: c.params.cancel_url,
        expires_at: now + 24 * 3600,
        url: '',
      };
      session.url = `${this.base}/pay/${session.id}`;
      this.sessions.set(session.id, { ...session, account: c.account, params: c.params });
      return { status: 200, body: session };
    }
    const pi = /^\/v1\/payment_intents\/([^/]+)$/.exec(c.path);
    if (c.method === 'GET' && pi) {
      const intent = this.intents.get(pi[1]);
      if (!intent || intent.account !== c.account) return error(404, `No such payment_intent: '${pi[1]}'`);
      const details = intent.ach ? { type: 'us_bank_account', us_bank_account: { bank_name: 'STRIPE TEST BANK' } } : { type: 'card', card: { brand: intent.brand } };
      const charge = { id: intent.charge, object: 'charge', amount: intent.amount, amount_refunded: intent.refunded, payment_intent: intent.id, payment_method_details: details, balance_transaction: { id: `txn_${intent.charge}`, object: 'balance_transaction', fee: intent.fee } };
      return { status: 200, body: { id: intent.id, object: 'payment_intent', amount: intent.amount, currency: 'usd', metadata: intent.metadata, latest_charge: charge, status: 'succeeded' } };
    }
    if (c.method === 'POST' && c.path === '/v1/refunds') {
      const intent = this.intents.get(c.params.payment_intent);
      if (!intent || intent.account !== c.account) return error(404, `No such payment_intent: '${c.params.payment_intent}'`);
      const amount = c.params.amount === undefined ? intent.amount - intent.refunded : Number(c.params.amount);
      if (amount <= 0 || intent.refunded + amount > intent.amount) return error(400, `Refund amount (${amount}) is greater than unrefunded amount on charge (${intent.amount - intent.refunded})`);
      intent.refunded += amount;
      // expand[]=charge: the charge as it reads after this refund (amount_refunded: all refunds so far).
      const expanded = Object.values(c.params.expand ?? {}).includes('charge');
      const charge = expanded ? { id: intent.charge, object: 'charge', amount: intent.amount, amount_refunded: intent.refunded, payment_intent: intent.id } : intent.charge;
      return { status: 200, body: { id: this.id('re'), object: 'refund', amount, charge, payment_intent: intent.id, status: 'succeeded', metadata: c.params.metadata ?? {} } };
    }
    if (c.method === 'POST' && c.path === '/v1/accounts') {
      return { status: 200, body: { id: this.id('acct'), object: 'account', type: c.params.type, metadata: c.params.metadata ?? {} } };
    }
    if (c.method === 'POST' && c.path === '/v1/account_links') {
      return { status: 200, body: { object: 'account_link', created: now, expires_at: now + 300, url: `${this.base}/setup/${c.params.account}` } };
    }
    return error(404, `Unrecognized request URL (${c.method}: ${c.path})`);
  }

  /** The customer pays the session: its PaymentIntent exists from now on. */
  pay(sessionId: string, o: SessionOptions = {}): { session: any; intent: Intent } {
    const s = this.sessions.get(sessionId);
    if (!s) throw new Error(`stand-in: no session ${sessionId}`);
    if (!s.payment_intent) {
      const intent: Intent = { id: this.id('pi'), account: s.account, amount: s.amount_total, metadata: s.metadata, charge: this.id('ch'), refunded: 0, brand: 'visa', ach: !!o.ach, fee: o.fee ?? Math.round(s.amount_total * 0.029) + 30 };
      this.intents.set(intent.id, intent);
      s.payment_intent = intent.id;
      s.status = 'complete';
      s.payment_status = o.ach ? 'unpaid' : 'paid';
    }
    return { session: s, intent: this.intents.get(s.payment_intent)! };
  }

  /** An event as Stripe sends it for a connected account. */
  event(type: string, object: Record<string, unknown>, account: string): Stripe.Event {
    return { id: this.id('evt'), object: 'event', api_version: Stripe.API_VERSION, created: Math.floor(Date.now() / 1000), type, account, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, data: { object } } as unknown as Stripe.Event;
  }

  /** checkout.session.* for a paid session (its object as Stripe shows it then). */
  sessionEvent(type: 'checkout.session.completed' | 'checkout.session.async_payment_succeeded' | 'checkout.session.async_payment_failed', sessionId: string, overrides: Record<string, unknown> = {}): Stripe.Event {
    const s = this.sessions.get(sessionId);
    const { account, params, ...session } = s;
    const paymentStatus = type === 'checkout.session.async_payment_succeeded' ? 'paid' : type === 'checkout.session.async_payment_failed' ? 'unpaid' : s.payment_status;
    return this.event(type, { ...session, payment_status: paymentStatus, ...overrides }, account);
  }

  /** charge.refunded as the charge reads now (amount_refunded: all refunds so far). */
  chargeRefunded(intentId: string, refundAlso = 0): Stripe.Event {
    const i = this.intents.get(intentId)!;
    i.refunded += refundAlso;
    return this.event('charge.refunded', { id: i.charge, object: 'charge', amount: i.amount, amount_refunded: i.refunded, refunded: i.refunded === i.amount, payment_intent: i.id, metadata: i.metadata }, i.account);
  }

  dispute(type: 'charge.dispute.created' | 'charge.dispute.closed', intentId: string, status: string, amount?: number): Stripe.Event {
    const i = this.intents.get(intentId)!;
    return this.event(type, { id: `dp_${i.charge}`, object: 'dispute', amount: amount ?? i.amount, charge: i.charge, payment_intent: i.id, reason: 'fraudulent', status }, i.account);
  }

  /** The body and Stripe-Signature header of an event, signed as Stripe signs it. */
  signed(event: Stripe.Event, o: { secret?: string; timestamp?: number } = {}): { body: string; signature: string } {
    const body = JSON.stringify(event);
    const signature = this.signer.webhooks.generateTestHeaderString({ payload: body, secret: o.secret ?? STAND_IN_WEBHOOK_SECRET, timestamp: o.timestamp });
    return { body, signature };
  }
}
