import { webhookConfig } from '../../../src/config/index';
import { claim, type Outcome } from '../../../src/modules/webhook/webhook.delivery';
import { record } from '../../../src/modules/webhook/webhook.record';
import { createTenant, rest, useTestApp } from '../../helpers/app';

// Claims (docs/webhooks.md): SKIP LOCKED with a lease; the attempt count fences the result, so an
// attempt whose lease expired and was taken over records nothing. No worker runs here.
const env = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' };
const t = useTestApp(env);
const ok: Outcome = { statusCode: 200, error: null, excerpt: 'ok', durationMs: 3, retryAfterS: null };

it('a claimed delivery is not claimed again until its lease expires; the stale result is fenced out', async () => {
  const a = await createTenant(t);
  const ep = (await rest(t, a).post('/webhook_endpoints', { url: 'http://127.0.0.1:9/x' })).body.data;
  const d = (await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/test`)).body.data;
  const first = await claim(t.orm, 10, 60);
  expect(first.map((c) => [c.uuid, c.attempts])).toEqual([[d.uuid, 1]]);
  expect(first[0].secret).toBe(ep.secret);
  expect(await claim(t.orm, 10, 60)).toEqual([]);
  // The first process stalls past its lease; another claims the delivery.
  await t.orm.em.getConnection().execute(`update webhook_deliveries set locked_until = now() - interval '1 second' where uuid = ?`, [d.uuid]);
  const second = await claim(t.orm, 10, 60);
  expect(second.map((c) => c.attempts)).toEqual([2]);
  const cfg = webhookConfig(env);
  expect(await record(t.orm, first[0], { ...ok, statusCode: 500, error: 'HTTP 500' }, cfg)).toBe(false);
  expect(await record(t.orm, second[0], ok, cfg)).toBe(true);
  // A success leaves the endpoint's failure clock stopped.
  const clock = () => t.orm.em.getConnection().execute<{ failing: boolean }[]>('select failing_since is not null as failing from webhook_endpoints where uuid = ?', [ep.uuid]);
  expect(await clock()).toEqual([{ failing: false }]);
  const got = (await rest(t, a).get(`/webhook_deliveries/${d.uuid}`)).body.data;
  expect(got).toMatchObject({ status: 'succeeded', attempts: 2, last_status_code: 200 });
  expect(got.attempt_log).toHaveLength(1);
  expect(await claim(t.orm, 10, 60)).toEqual([]);
});

it('deliveries of a disabled endpoint are not claimed until it is enabled again', async () => {
  const a = await createTenant(t);
  const ep = (await rest(t, a).post('/webhook_endpoints', { url: 'http://127.0.0.1:9/x' })).body.data;
  await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/test`);
  await rest(t, a).put(`/webhook_endpoints/${ep.uuid}`, { status: 'disabled' });
  expect(await claim(t.orm, 10, 60)).toEqual([]);
  await rest(t, a).put(`/webhook_endpoints/${ep.uuid}`, { status: 'active' });
  expect(await claim(t.orm, 10, 60)).toHaveLength(1);
});

it('a failure starts the failure clock and a later success stops it', async () => {
  const a = await createTenant(t);
  const ep = (await rest(t, a).post('/webhook_endpoints', { url: 'http://127.0.0.1:9/x' })).body.data;
  const clock = async () => (await t.orm.em.getConnection().execute<{ failing: boolean }[]>('select failing_since is not null as failing from webhook_endpoints where uuid = ?', [ep.uuid]))[0].failing;
  const cfg = webhookConfig({ ...env, WEBHOOK_RETRY_SCALE: '0' });
  await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/test`);
  const [c1] = await claim(t.orm, 10, 60);
  await record(t.orm, c1, { ...ok, statusCode: 500, error: 'HTTP 500' }, cfg);
  expect(await clock()).toBe(true);
  const [c2] = await claim(t.orm, 10, 60);
  expect(c2.failing).toBe(true);
  await record(t.orm, c2, ok, cfg);
  expect(await clock()).toBe(false);
});
