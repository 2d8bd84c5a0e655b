import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { webhookConfig } from '../../../src/config/index';
import { startWebhookWorker, type WebhookWorker } from '../../../src/modules/webhook/webhook.worker';
import { createTenant, rest, Tenant, useTestApp } from '../../helpers/app';
import { makeJob } from '../../helpers/billing';
import { readAll } from '../../helpers/events';
import { Answer, Received, startReceiver, until } from '../../helpers/webhook-receiver';

// Deliveries (docs/webhooks.md), with a worker in this process and receivers on 127.0.0.1.

const env = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCALE: '0.001', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_LEASE_SECONDS: '5' };
const t = useTestApp(env);

let worker: WebhookWorker | undefined;
let receivers: Array<{ close(): Promise<void> }> = [];
beforeEach(() => {
  worker = startWebhookWorker(t.orm, webhookConfig(env));
});
afterEach(async () => {
  await worker?.stop();
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
});

async function receiver(answer?: (r: Received, n: number) => Answer) {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

async function endpoint(tenant: Tenant, url: string, eventTypes?: string[]) {
  const res = await rest(t, tenant).post('/webhook_endpoints', { url, ...(eventTypes ? { event_types: eventTypes } : {}) });
  expect(res.status).toBe(200);
  return res.body.data as { uuid: string; secret: string };
}

const customer = async (tenant: Tenant, first = 'Ada') => (await rest(t, tenant).post('/customers', { first_name: first, last_name: 'L', email: `${first.toLowerCase()}@x.example` })).body.data;
const verify = (secret: string, r: Received) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
const delivery = async (tenant: Tenant, uuid: string) => (await rest(t, tenant).get(`/webhook_deliveries/${uuid}`)).body.data;
const deliveries = async (tenant: Tenant, ep: string, q = '') => (await rest(t, tenant).get(`/webhook_endpoints/${ep}/deliveries${q}`)).body.data.deliveries as any[];

describe('webhook deliveries', () => {
  it('posts each event as the feed shows it, signed per Standard Webhooks, and logs it', async () => {
    const a = await createTenant(t);
    const r = await receiver();
    const ep = await endpoint(a, r.url());
    const c = await customer(a);
    await until(() => r.received.length >= 1, 'a delivery');
    const [got] = r.received;
    expect(got.headers['content-type']).toBe('application/json');
    expect(verify(ep.secret, got)).toMatchObject({ type: 'customer.created' });
    const { events } = await readAll(t, a);
    expect(events).toHaveLength(1);
    expect(got.body).toBe(JSON.stringify(events[0]));
    expect(got.headers['webhook-id']).toBe(events[0].id);
    expect(JSON.parse(got.body).data.object.uuid).toBe(c.uuid);

    const [logged] = await until(async () => {
      const l = await deliveries(a, ep.uuid, '?status=succeeded');
      return l.length ? l : null;
    }, 'the log');
    expect(logged).toMatchObject({ event_id: events[0].id, event_type: 'customer.created', status: 'succeeded', attempts: 1, last_status_code: 200, last_error: null, next_attempt_at: null });
    const detail = await delivery(a, logged.uuid);
    expect(detail.attempt_log).toEqual([expect.objectContaining({ status_code: 200, error: null, response_excerpt: 'ok' })]);
  });

  it('retries 500, 500 then 200 with the same webhook-id and identical bytes', async () => {
    const a = await createTenant(t);
    const r = await receiver((_r, n) => ({ status: n <= 2 ? 500 : 200, body: n <= 2 ? 'boom' : 'ok' }));
    const ep = await endpoint(a, r.url());
    await customer(a);
    await until(() => r.received.length >= 3, 'three attempts');
    const ids = new Set(r.received.map((x) => x.headers['webhook-id']));
    expect(ids.size).toBe(1);
    expect(new Set(r.received.map((x) => x.body)).size).toBe(1);
    for (const x of r.received) verify(ep.secret, x);
    const [d] = await until(async () => {
      const l = await deliveries(a, ep.uuid, '?status=succeeded');
      return l.length ? l : null;
    }, 'success');
    const detail = await delivery(a, d.uuid);
    expect(detail.attempts).toBe(3);
    expect(detail.attempt_log.map((x: any) => x.status_code)).toEqual([500, 500, 200]);
    expect(detail.attempt_log[0]).toMatchObject({ error: 'HTTP 500', response_excerpt: 'boom' });
  });

  it('a 410 disables the endpoint; PUT status active enables it again', async () => {
    const a = await createTenant(t);
    const r = await receiver(() => ({ status: 410 }));
    const ep = await endpoint(a, r.url());
    await customer(a);
    const disabled = await until(async () => {
      const e = (await rest(t, a).get(`/webhook_endpoints/${ep.uuid}`)).body.data;
      return e.status === 'disabled' ? e : null;
    }, 'disabled');
    expect(disabled.disabled_reason).toMatch(/410/);
    expect((await rest(t, a).put(`/webhook_endpoints/${ep.uuid}`, { status: 'active' })).body.data).toMatchObject({ status: 'active', disabled_reason: null });
  });

  it('a redirect is not followed: a 3xx is a failed attempt', async () => {
    const a = await createTenant(t);
    const target = await receiver();
    const r = await receiver(() => ({ status: 302, headers: { location: target.url() } }));
    const ep = await endpoint(a, r.url());
    const d = (await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/test`)).body.data;
    const got = await until(async () => {
      const x = await delivery(a, d.uuid);
      return x.attempt_log.length ? x : null;
    }, 'an attempt');
    expect(got.attempt_log[0]).toMatchObject({ status_code: 302, error: 'HTTP 302' });
    expect(target.received).toHaveLength(0);
  });

  it('429 with Retry-After waits that long (scaled); five days of failures disable the endpoint', async () => {
    const a = await createTenant(t);
    const r = await receiver(() => ({ status: 429, headers: { 'retry-after': '100000' } }));
    const ep = await endpoint(a, r.url());
    const d = (await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/test`)).body.data;
    const got = await until(async () => {
      const x = await delivery(a, d.uuid);
      return x.attempt_log.length ? x : null;
    }, 'an attempt');
    // At most 24 h, times WEBHOOK_RETRY_SCALE (0.001): 86.4 s ± 10%.
    const wait = (Date.parse(got.next_attempt_at) - Date.parse(got.attempt_log[0].at)) / 1000;
    expect(wait).toBeGreaterThan(86.4 * 0.9 - 1);
    expect(wait).toBeLessThan(86.4 * 1.1 + 1);
    expect((await rest(t, a).get(`/webhook_endpoints/${ep.uuid}`)).body.data.status).toBe('active');
    // The endpoint has been failing for more than five days: the next failure disables it.
    await t.orm.em.getConnection().execute(`update webhook_endpoints set failing_since = now() - interval '5 days 1 minute' where uuid = ?`, [ep.uuid]);
    await rest(t, a).post(`/webhook_deliveries/${d.uuid}/retry`);
    const disabled = await until(async () => {
      const e = (await rest(t, a).get(`/webhook_endpoints/${ep.uuid}`)).body.data;
      return e.status === 'disabled' ? e : null;
    }, 'disabled');
    expect(disabled.disabled_reason).toBe('No successful delivery for 5 days');
  });

  it('/metrics shows attempts by outcome, latency, queue depth and the oldest pending age', async () => {
    const a = await createTenant(t);
    const r = await receiver();
    const ep = await endpoint(a, r.url());
    await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/test`);
    await until(async () => (await deliveries(a, ep.uuid, '?status=succeeded')).length === 1, 'a success');
    const text = (await request(t.app).get('/metrics')).text;
    expect(text).toMatch(/^webhook_attempts_total\{outcome="succeeded"\} [1-9]/m);
    expect(text).toMatch(/^webhook_attempt_duration_seconds_count [1-9]/m);
    expect(text).toMatch(/^webhook_queue_depth\{state="due"\} 0$/m);
    expect(text).toMatch(/^webhook_oldest_pending_age_seconds 0$/m);
  });

  it('an answer slower than the timeout is a failed attempt', async () => {
    const a = await createTenant(t);
    const r = await receiver(() => ({ status: 200, holdMs: 3000 }));
    const ep = await endpoint(a, r.url());
    const d = (await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/test`)).body.data;
    const got = await until(async () => {
      const x = await delivery(a, d.uuid);
      return x.attempt_log.length ? x : null;
    }, 'an attempt');
    expect(got.attempt_log[0]).toMatchObject({ status_code: null, error: 'timeout after 1000 ms' });
    expect(got.status).toBe('pending');
  });

  it('after a rotation both secrets verify for the window, then only the new one', async () => {
    const a = await createTenant(t);
    const r = await receiver();
    const ep = await endpoint(a, r.url());
    const rotated = (await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/rotate_secret`)).body.data.secret;
    await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/test`);
    await until(() => r.received.length >= 1, 'a delivery');
    expect(r.received[0].headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    expect(verify(ep.secret, r.received[0])).toMatchObject({ type: 'webhook.test' });
    expect(verify(rotated, r.received[0])).toMatchObject({ type: 'webhook.test' });
    // The window passes.
    await t.orm.em.getConnection().execute(`update webhook_endpoints set old_secret_until = now() - interval '1 second' where uuid = ?`, [ep.uuid]);
    await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/test`);
    await until(() => r.received.length >= 2, 'a second delivery');
    expect(r.received[1].headers['webhook-signature']).toMatch(/^v1,\S+$/);
    expect(verify(rotated, r.received[1])).toMatchObject({ type: 'webhook.test' });
    expect(() => verify(ep.secret, r.received[1])).toThrow();
  });

  it('a rolled-back write sends nothing; another company and unselected types never arrive', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Bravo' });
    const all = await receiver();
    const invoices = await receiver();
    const bOnly = await receiver();
    await endpoint(a, all.url());
    await endpoint(a, invoices.url(), ['invoice.*']);
    await endpoint(b, bOnly.url());
    const c = await customer(a);
    const em = t.orm.em.fork();
    await expect(
      em.transactional(async (tx) => {
        await tx.getConnection().execute(`update customers set first_name = 'Rolled' where uuid = ?`, [c.uuid], 'all', tx.getTransactionContext());
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await customer(a, 'Bea');
    const cb = await customer(b, 'Bob');
    await until(() => all.received.length >= 2 && bOnly.received.length >= 1, 'deliveries');
    // Another event after them, then everything for A is in: the rolled-back update never came.
    await rest(t, a).post(`/webhook_endpoints/${(await rest(t, a).get('/webhook_endpoints')).body.data.webhook_endpoints[0].uuid}/test`);
    await until(() => all.received.length >= 3, 'the test event');
    const types = all.received.map((x) => JSON.parse(x.body).type);
    expect(types.sort()).toEqual(['customer.created', 'customer.created', 'webhook.test']);
    expect(all.received.map((x) => x.body).join()).not.toContain('Rolled');
    expect(invoices.received).toHaveLength(0);
    expect(bOnly.received.map((x) => JSON.parse(x.body).data.object.uuid)).toEqual([cb.uuid]);
  });

  it('filters: invoice.* gets invoice events only, an exact type only that type', async () => {
    const a = await createTenant(t);
    const inv = await receiver();
    const created = await receiver();
    const all = await receiver();
    await endpoint(a, inv.url(), ['invoice.*']);
    await endpoint(a, created.url(), ['customer.created']);
    await endpoint(a, all.url());
    const c = await customer(a);
    await rest(t, a).put(`/customers/${c.uuid}`, { first_name: 'Ann' });
    const job = await makeJob(t, a);
    const invoice = await rest(t, a).post('/invoices', { job_uuid: job.uuid, customer_uuid: job.customer_uuid, due_date: '2099-01-01', subtotal: 10 });
    expect(invoice.status).toBe(200);
    // The feed shows an event once it has a position; the invoice's events come last.
    const events = await until(async () => {
      const e = (await readAll(t, a)).events;
      return e.some((x) => x.type === 'invoice.created') ? e : null;
    }, 'the invoice in the feed');
    await until(() => all.received.length >= events.length, 'every event');
    const typesOf = (r: { received: Received[] }) => r.received.map((x) => JSON.parse(x.body).type as string).sort();
    expect(typesOf(all)).toEqual(events.map((e) => e.type).sort());
    await until(() => inv.received.length >= events.filter((e) => e.type.startsWith('invoice.')).length && created.received.length >= 2, 'filtered');
    expect(typesOf(inv)).toEqual(events.filter((e) => e.type.startsWith('invoice.')).map((e) => e.type).sort());
    expect(typesOf(created)).toEqual(['customer.created', 'customer.created']);
    expect(events.filter((e) => e.type === 'customer.created')).toHaveLength(2);
  });

  it('retry attempts again now; replay re-queues failed deliveries', async () => {
    const a = await createTenant(t);
    let fail = true;
    const r = await receiver(() => ({ status: fail ? 400 : 200 }));
    const ep = await endpoint(a, r.url());
    const d = (await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/test`)).body.data;
    await until(() => r.received.length >= 1, 'an attempt');
    // Give up at once (as after the last retry).
    await t.orm.em.getConnection().execute(`update webhook_deliveries set status = 'failed', next_attempt_at = null where uuid = ?`, [d.uuid]);
    expect((await deliveries(a, ep.uuid, '?status=failed')).map((x) => x.uuid)).toEqual([d.uuid]);
    fail = false;
    const replay = await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/replay`, { status: 'failed' });
    expect(replay.body.data).toEqual({ requeued: 1 });
    await until(async () => (await delivery(a, d.uuid)).status === 'succeeded', 'success after replay');
    const n = r.received.length;
    const retried = await rest(t, a).post(`/webhook_deliveries/${d.uuid}/retry`);
    expect(retried.body.data.status).toBe('pending');
    await until(() => r.received.length > n, 'the retry');
    expect(new Set(r.received.map((x) => x.body)).size).toBe(1);
  });
});
