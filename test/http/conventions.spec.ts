import request from 'supertest';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/index';
import { initOrm } from '../../src/db/orm';
import { revokeKey } from '../../src/modules/company/company.admin';
import { ApiKey } from '../../src/modules/api-key/api-key.entity';
import { createTenant, rest, useTestApp } from '../helpers/app';

const t = useTestApp();
const err = (code: string) => ({ success: false, data: null, error: expect.objectContaining({ code, message: expect.any(String) }) });

describe('authentication', () => {
  it('401 with the envelope for missing, malformed, unknown and revoked keys, on both surfaces', async () => {
    const a = await createTenant(t);
    const keys = [undefined, 'Bearer', 'Bearer fsk_short', 'Basic abc', `Bearer fsk_${'A'.repeat(40)}`];
    for (const header of keys) {
      const r = request(t.app).get('/api/v1/customers');
      const res = header ? await r.set('Authorization', header) : await r;
      expect(res.status).toBe(401);
      expect(res.body).toEqual(err('UNAUTHORIZED'));
      const g = request(t.app).post('/graphql').send({ query: '{ company { uuid } }' });
      const gres = header ? await g.set('Authorization', header) : await g;
      expect(gres.status).toBe(401);
      expect(gres.body.error.code).toBe('UNAUTHORIZED');
      expect(gres.body.errors[0].extensions.code).toBe('UNAUTHORIZED');
    }
    expect((await rest(t, a).get('/customers')).status).toBe(200);
    const em = t.orm.em.fork();
    const key = await em.findOneOrFail(ApiKey, { company: a.companyUuid }, { filters: false });
    await revokeKey(em, key.id);
    expect((await rest(t, a).get('/customers')).status).toBe(401);
    const g = await request(t.app).post('/graphql').set('Authorization', `Bearer ${a.key}`).send({ query: '{ company { uuid } }' });
    expect(g.status).toBe(401);
  });
});

describe('HTTP conventions', () => {
  it('sends X-Request-Id on every response and echoes a sane incoming one', async () => {
    const a = await createTenant(t);
    const res = await rest(t, a).get('/customers');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect((await request(t.app).get('/nope').set('X-Request-Id', 'abc-123')).headers['x-request-id']).toBe('abc-123');
    expect((await request(t.app).get('/health').set('X-Request-Id', 'bad id!')).headers['x-request-id']).not.toBe('bad id!');
  });

  it('refuses malformed JSON, wrong content types and bodies over 1 MiB with 400', async () => {
    const a = await createTenant(t);
    const post = () => request(t.app).post('/api/v1/customers').set('Authorization', `Bearer ${a.key}`);
    const malformed = await post().set('Content-Type', 'application/json').send('{"first_name": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual(err('VALIDATION_ERROR'));
    const text = await post().set('Content-Type', 'text/plain').send('first_name=A');
    expect(text.status).toBe(400);
    expect(text.body).toEqual(err('VALIDATION_ERROR'));
    const charset = await post().set('Content-Type', 'application/json; charset=utf-8').send(JSON.stringify({ first_name: 'A', last_name: 'B' }));
    expect(charset.status).toBe(200);
    const big = await post().set('Content-Type', 'application/json').send(JSON.stringify({ first_name: 'A', last_name: 'B', notes: 'x'.repeat(1024 * 1024 + 10) }));
    expect(big.status).toBe(400);
    expect(big.body.error.code).toBe('VALIDATION_ERROR');
    const array = await post().send([1, 2]);
    expect(array.status).toBe(400);
  });

  it('answers unknown routes and methods with the 404 envelope (a known path with Allow); trailing slash and HEAD work', async () => {
    const a = await createTenant(t);
    expect((await rest(t, a).get('/widgets')).body).toEqual(err('NOT_FOUND'));
    expect((await rest(t, a).get('/widgets')).status).toBe(404);
    const patch = await request(t.app).patch('/api/v1/customers').set('Authorization', `Bearer ${a.key}`).send({});
    expect(patch.status).toBe(404);
    expect(patch.headers.allow).toBe('GET, HEAD, POST');
    expect(patch.body).toEqual(err('NOT_FOUND'));
    expect((await request(t.app).get('/elsewhere')).status).toBe(404);
    expect((await rest(t, a).get('/customers/')).status).toBe(200);
    const head = await request(t.app).head('/api/v1/customers').set('Authorization', `Bearer ${a.key}`);
    expect(head.status).toBe(200);
  });

  it('keeps CORS off unless CORS_ORIGINS lists the origin', async () => {
    const res = await request(t.app).get('/health').set('Origin', 'https://evil.example');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const orm = await initOrm(t.url, 2);
    const built = await createApp({ orm, config: loadConfig({ DATABASE_URL: t.url, CORS_ORIGINS: 'https://app.example' }) });
    try {
      const ok = await request(built.app).options('/api/v1/customers').set('Origin', 'https://app.example').set('Access-Control-Request-Method', 'GET');
      expect(ok.headers['access-control-allow-origin']).toBe('https://app.example');
      const other = await request(built.app).get('/health').set('Origin', 'https://evil.example');
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await built.close();
      await orm.close(true);
    }
  });

  it('serves /health and /ready', async () => {
    expect((await request(t.app).get('/health')).body).toEqual({ success: true, data: { status: 'ok' } });
    expect((await request(t.app).get('/ready')).body.data.status).toBe('ready');
  });

  it('turns an unexpected failure into a bare 500 that leaks nothing', async () => {
    const a = await createTenant(t);
    const orm = await initOrm(t.url, 2);
    const built = await createApp({ orm, config: loadConfig({ DATABASE_URL: t.url }) });
    await orm.close(true); // the database is gone for this app: every query fails
    try {
      const res = await request(built.app).get('/api/v1/customers').set('Authorization', `Bearer ${a.key}`);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ success: false, data: null, error: { code: 'INTERNAL', message: 'Internal server error' } });
      expect(res.headers['x-request-id']).toBeDefined();
      const ready = await request(built.app).get('/ready');
      expect(ready.status).toBe(503);
    } finally {
      await built.close();
    }
  });
});
