import { webhookConfig } from '../../../src/config/index';
import { startWebhookWorker, type WebhookWorker } from '../../../src/modules/webhook/webhook.worker';
import { createTenant, rest, useTestApp } from '../../helpers/app';
import { startReceiver, until } from '../../helpers/webhook-receiver';

// SSRF rules (docs/webhooks.md): without WEBHOOK_ALLOW_PRIVATE, a URL whose host is or resolves to
// a loopback, private, link-local, unique-local or metadata address is refused at create and
// update, and again on the address a delivery connects to.

const env = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_RETRY_SCALE: '0.001' };
const t = useTestApp(env);

describe('webhook URL safety', () => {
  it.each(['http://127.0.0.1/x', 'http://10.0.0.1/x', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/x', 'http://localhost:8080/x', 'http://[::ffff:127.0.0.1]/x', 'http://192.168.1.5/x', 'http://[fd00::1]/x', 'http://0.0.0.0/x'])(
    'refuses %s at create and update',
    async (url) => {
      const a = await createTenant(t);
      const res = await rest(t, a).post('/webhook_endpoints', { url });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0]).toMatchObject({ field: 'url' });
      expect(res.body.error.details[0].message).toMatch(/private, loopback, link-local or metadata/);
      const ok = await rest(t, a).post('/webhook_endpoints', { url: 'http://93.184.215.14/hook' });
      expect(ok.status).toBe(200);
      const upd = await rest(t, a).put(`/webhook_endpoints/${ok.body.data.uuid}`, { url });
      expect(upd.status).toBe(400);
      expect(upd.body.error.details[0].field).toBe('url');
    },
  );

  it('refuses http:// without WEBHOOK_ALLOW_HTTP', async () => {
    const { checkEndpointUrl } = await import('../../../src/modules/webhook/webhook.url');
    await expect(checkEndpointUrl('http://93.184.215.14/hook', { allowHttp: false, allowPrivate: false })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(checkEndpointUrl('https://93.184.215.14/hook', { allowHttp: false, allowPrivate: false })).resolves.toBe('https://93.184.215.14/hook');
  });

  describe('at delivery', () => {
    let worker: WebhookWorker | undefined;
    afterEach(async () => worker?.stop());

    it.each(['127.0.0.1', 'localhost'])('a stored URL that now points to %s is refused on the address connected to, never sent', async (host) => {
      const receiver = await startReceiver();
      try {
        const a = await createTenant(t);
        const ep = (await rest(t, a).post('/webhook_endpoints', { url: 'http://93.184.215.14/hook' })).body.data;
        // As if the name had been rebound to a private address after the check.
        await t.orm.em.getConnection().execute('update webhook_endpoints set url = ? where uuid = ?', [receiver.url().replace('127.0.0.1', host), ep.uuid]);
        const d = (await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/test`)).body.data;
        worker = startWebhookWorker(t.orm, webhookConfig({ ...env, WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_LEASE_SECONDS: '5' }));
        const got = await until(async () => {
          const r = (await rest(t, a).get(`/webhook_deliveries/${d.uuid}`)).body.data;
          return r.attempts >= 1 && r.attempt_log.length >= 1 ? r : null;
        }, 'an attempt');
        expect(got.attempt_log[0].error).toMatch(/refused address/);
        expect(got.attempt_log[0].status_code).toBeNull();
        expect(receiver.received).toHaveLength(0);
      } finally {
        await receiver.close();
      }
    });
  });
});
