import { createTenant, gql, rest, useTestApp } from '../../helpers/app';

// Webhook endpoints on both surfaces (docs/webhooks.md): CRUD, the secret shown once, rotation,
// the per-company limit, validation and tenancy. URL safety rules: webhooks-urls.spec.ts.

const t = useTestApp({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
const URL1 = 'http://127.0.0.1:9/hook';

describe('webhook endpoints (REST)', () => {
  it('creates with the secret shown once, lists, gets, updates and deletes', async () => {
    const a = await createTenant(t);
    const created = await rest(t, a).post('/webhook_endpoints', { url: URL1, description: 'ERP' });
    expect(created.status).toBe(200);
    const ep = created.body.data;
    expect(ep).toMatchObject({ url: URL1, description: 'ERP', event_types: ['*'], status: 'active', disabled_reason: null });
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(ep.secret.slice(6), 'base64')).toHaveLength(32);

    const got = await rest(t, a).get(`/webhook_endpoints/${ep.uuid}`);
    expect(got.body.data).not.toHaveProperty('secret');
    expect(got.body.data).toEqual(Object.fromEntries(Object.entries(ep).filter(([k]) => k !== 'secret')));
    const list = await rest(t, a).get('/webhook_endpoints');
    expect(list.body.data.webhook_endpoints.map((e: any) => e.uuid)).toEqual([ep.uuid]);
    expect(list.body.data.pagination).toMatchObject({ page: 1, total: 1 });

    const put = await rest(t, a).put(`/webhook_endpoints/${ep.uuid}`, { event_types: ['invoice.*', 'payment.created'], status: 'disabled' });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ event_types: ['invoice.*', 'payment.created'], status: 'disabled', disabled_reason: 'disabled by request' });
    const enabled = await rest(t, a).put(`/webhook_endpoints/${ep.uuid}`, { status: 'active' });
    expect(enabled.body.data).toMatchObject({ status: 'active', disabled_reason: null });

    const rotated = await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/rotate_secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(ep.secret);

    expect((await rest(t, a).delete(`/webhook_endpoints/${ep.uuid}`)).status).toBe(200);
    expect((await rest(t, a).get(`/webhook_endpoints/${ep.uuid}`)).status).toBe(404);
  });

  it('validates event_types with the feed rules and the url', async () => {
    const a = await createTenant(t);
    const bad = await rest(t, a).post('/webhook_endpoints', { url: URL1, event_types: ['invoice.exploded'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('event_types');
    const noUrl = await rest(t, a).post('/webhook_endpoints', {});
    expect(noUrl.status).toBe(400);
    const ftp = await rest(t, a).post('/webhook_endpoints', { url: 'ftp://example.com/x' });
    expect(ftp.status).toBe(400);
    expect(ftp.body.error.details[0].field).toBe('url');
  });

  it('allows at most 16 endpoints per company', async () => {
    const a = await createTenant(t);
    for (let i = 0; i < 16; i++) expect((await rest(t, a).post('/webhook_endpoints', { url: `${URL1}${i}` })).status).toBe(200);
    const over = await rest(t, a).post('/webhook_endpoints', { url: URL1 });
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('VALIDATION_ERROR');
    const b = await createTenant(t, { name: 'Other' });
    expect((await rest(t, b).post('/webhook_endpoints', { url: URL1 })).status).toBe(200);
  });

  it("never shows or changes another company's endpoints and deliveries", async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other' });
    const ep = (await rest(t, a).post('/webhook_endpoints', { url: URL1 })).body.data;
    const test = (await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/test`)).body.data;
    for (const r of [
      rest(t, b).get(`/webhook_endpoints/${ep.uuid}`),
      rest(t, b).put(`/webhook_endpoints/${ep.uuid}`, { description: 'x' }),
      rest(t, b).delete(`/webhook_endpoints/${ep.uuid}`),
      rest(t, b).post(`/webhook_endpoints/${ep.uuid}/rotate_secret`),
      rest(t, b).post(`/webhook_endpoints/${ep.uuid}/test`),
      rest(t, b).get(`/webhook_endpoints/${ep.uuid}/deliveries`),
      rest(t, b).get(`/webhook_deliveries/${test.uuid}`),
      rest(t, b).post(`/webhook_deliveries/${test.uuid}/retry`),
      rest(t, b).post(`/webhook_endpoints/${ep.uuid}/replay`, { status: 'failed' }),
    ]) {
      const res = await r;
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain(URL1);
    }
    expect((await rest(t, b).get('/webhook_endpoints')).body.data.webhook_endpoints).toEqual([]);
    expect((await gql(t, b, `{ webhookEndpoint(uuid: "${ep.uuid}") { uuid } }`)).errors![0].extensions.code).toBe('NOT_FOUND');
  });

  it('replay needs from and to, or status failed', async () => {
    const a = await createTenant(t);
    const ep = (await rest(t, a).post('/webhook_endpoints', { url: URL1 })).body.data;
    expect((await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/replay`, {})).status).toBe(400);
    expect((await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/replay`, { from: '2026-01-01T00:00:00Z' })).status).toBe(400);
    const r = await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/replay`, { status: 'failed' });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ requeued: 0 });
  });
});

describe('webhook endpoints (GraphQL)', () => {
  it('creates, reads, updates, rotates, tests and deletes', async () => {
    const a = await createTenant(t);
    const created = await gql(t, a, `mutation($i: WebhookEndpointCreateInput!) { createWebhookEndpoint(input: $i) { secret endpoint { uuid url eventTypes status disabledReason } } }`, {
      i: { url: URL1, eventTypes: ['invoice.*'] },
    });
    expect(created.errors).toBeUndefined();
    const { endpoint, secret } = created.data.createWebhookEndpoint;
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint).toMatchObject({ url: URL1, eventTypes: ['invoice.*'], status: 'ACTIVE', disabledReason: null });

    const list = await gql(t, a, `{ webhookEndpoints { items { uuid } pagination { total } } webhookEndpoint(uuid: "${endpoint.uuid}") { url } }`);
    expect(list.data.webhookEndpoints.items).toEqual([{ uuid: endpoint.uuid }]);
    expect(list.data.webhookEndpoint.url).toBe(URL1);

    const bad = await gql(t, a, `mutation { updateWebhookEndpoint(uuid: "${endpoint.uuid}", input: { eventTypes: ["nope"] }) { uuid } }`);
    expect(bad.errors![0].extensions.code).toBe('VALIDATION_ERROR');
    const upd = await gql(t, a, `mutation { updateWebhookEndpoint(uuid: "${endpoint.uuid}", input: { status: DISABLED }) { status disabledReason } }`);
    expect(upd.data.updateWebhookEndpoint).toEqual({ status: 'DISABLED', disabledReason: 'disabled by request' });

    const rot = await gql(t, a, `mutation { rotateWebhookEndpointSecret(uuid: "${endpoint.uuid}") { secret endpoint { uuid } } }`);
    expect(rot.data.rotateWebhookEndpointSecret.secret).not.toBe(secret);

    const test = await gql(t, a, `mutation { sendTestWebhook(endpointUuid: "${endpoint.uuid}") { uuid eventType status attempts attemptLog { at } } }`);
    expect(test.data.sendTestWebhook).toMatchObject({ eventType: 'webhook.test', status: 'PENDING', attempts: 0, attemptLog: [] });
    const deliveries = await gql(t, a, `{ webhookDeliveries(endpointUuid: "${endpoint.uuid}", status: PENDING) { items { uuid eventId } pagination { total } } }`);
    expect(deliveries.data.webhookDeliveries.items.map((d: any) => d.uuid)).toEqual([test.data.sendTestWebhook.uuid]);
    const one = await gql(t, a, `{ webhookDelivery(uuid: "${test.data.sendTestWebhook.uuid}") { eventId status } }`);
    expect(one.data.webhookDelivery.eventId).toMatch(/^evt_test_/);
    const replay = await gql(t, a, `mutation { replayWebhookDeliveries(endpointUuid: "${endpoint.uuid}", input: { status: FAILED }) { requeued } }`);
    expect(replay.data.replayWebhookDeliveries.requeued).toBe(0);
    const retry = await gql(t, a, `mutation { retryWebhookDelivery(uuid: "${test.data.sendTestWebhook.uuid}") { status } }`);
    expect(retry.data.retryWebhookDelivery.status).toBe('PENDING');

    const del = await gql(t, a, `mutation { deleteWebhookEndpoint(uuid: "${endpoint.uuid}") { message } }`);
    expect(del.errors).toBeUndefined();
    expect((await gql(t, a, `{ webhookEndpoints { items { uuid } } }`)).data.webhookEndpoints.items).toEqual([]);
  });
});

describe('migration 0015', () => {
  it('goes down (no webhook tables, no dispatcher index) and up again', async () => {
    const a = await createTenant(t);
    await rest(t, a).post('/webhook_endpoints', { url: URL1 });
    const migrator = t.orm.getMigrator();
    const sql = (q: string) => t.orm.em.getConnection().execute(q);
    try {
      await migrator.down({ to: 'Migration20261125000015_webhooks' });
      expect(await sql(`select to_regclass('webhook_endpoints') as e, to_regclass('webhook_deliveries') as d, to_regclass('webhook_dispatch_state') as s, to_regclass('events_position_idx') as i`)).toEqual([{ e: null, d: null, s: null, i: null }]);
    } finally {
      await migrator.up();
    }
    expect(await sql(`select position from webhook_dispatch_state`)).toHaveLength(1);
    expect((await rest(t, a).post('/webhook_endpoints', { url: URL1 })).status).toBe(200);
  });
});
