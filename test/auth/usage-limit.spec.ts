import request from 'supertest';
import { keyOptions } from '../../src/modules/company/company.admin';
import { createTenant, rest, useTestApp } from '../helpers/app';
import { keyWith } from '../helpers/keys';

const t = useTestApp({ TRUST_PROXY: 'loopback' });

const gqlRaw = (key: string, query: string) => request(t.app).post('/graphql').set('Authorization', `Bearer ${key}`).send({ query });

/** Seconds from now to the end of the current UTC window, as the server should report it. */
function secondsToWindowEnd(period: 'hour' | 'day' | 'month'): number {
  const now = new Date();
  const end =
    period === 'hour'
      ? Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), now.getUTCHours() + 1)
      : period === 'day'
        ? Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)
        : Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.ceil((end - now.getTime()) / 1000);
}

async function counted(keyId: string): Promise<number> {
  const rows = await t.orm.em.fork().getConnection().execute<{ n: number }[]>('select coalesce(sum(count), 0)::int as n from api_key_usage where key_id = ?', [keyId]);
  return rows[0].n;
}

describe('usage limits', () => {
  it('counts REST and GraphQL requests together; past the limit 403 with RateLimit headers', async () => {
    const k = await keyWith(t, await createTenant(t), { usageLimit: 3, usagePeriod: 'hour' });
    const first = await rest(t, k.key).get('/customers');
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('3');
    expect(first.headers['ratelimit-remaining']).toBe('2');
    const reset = Number(first.headers['ratelimit-reset']);
    expect(Math.abs(reset - secondsToWindowEnd('hour'))).toBeLessThanOrEqual(2);

    // A GraphQL request counts once, however many fields it selects.
    const g = await gqlRaw(k.key, '{ company { uuid } users { items { id } } customers { items { uuid } } a: company { name } }');
    expect(g.status).toBe(200);
    expect(g.headers['ratelimit-remaining']).toBe('1');
    const third = await rest(t, k.key).post('/customers', { first_name: 'A', last_name: 'B' });
    expect(third.status).toBe(200);
    expect(third.headers['ratelimit-remaining']).toBe('0');

    const refused = await rest(t, k.key).get('/customers');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ success: false, data: null, error: { code: 'USAGE_LIMIT_EXCEEDED', message: expect.stringContaining('3 requests per hour') } });
    expect(refused.headers['ratelimit-limit']).toBe('3');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['ratelimit-reset'])).toBeGreaterThan(0);
    expect(refused.headers['retry-after']).toBe(refused.headers['ratelimit-reset']);

    const gRefused = await gqlRaw(k.key, '{ company { uuid } }');
    expect(gRefused.status).toBe(403);
    expect(gRefused.body.errors[0].extensions.code).toBe('USAGE_LIMIT_EXCEEDED');
    expect(gRefused.headers['ratelimit-remaining']).toBe('0');
    // Refused requests count too (they passed the key and IP checks).
    expect(await counted(k.id)).toBe(5);
  });

  it('refuses writes past the limit without performing them', async () => {
    const k = await keyWith(t, await createTenant(t), { usageLimit: 1, usagePeriod: 'day' });
    expect((await rest(t, k.key).get('/customers')).status).toBe(200);
    expect((await rest(t, k.key).post('/customers', { first_name: 'A', last_name: 'B' })).status).toBe(403);
    const other = await createTenant(t, { name: 'Other' });
    const rows = await t.orm.em.fork().getConnection().execute<{ n: number }[]>('select count(*)::int as n from customers where company_uuid = ?', [k.companyUuid]);
    expect(rows[0].n).toBe(0);
    expect((await rest(t, other).get('/customers')).status).toBe(200);
  });

  it.each(['day', 'month'] as const)('per %s: reset is the seconds to the end of the UTC window', async (period) => {
    const k = await keyWith(t, await createTenant(t), { usageLimit: 10, usagePeriod: period });
    const res = await rest(t, k.key).get('/companies/me');
    expect(res.status).toBe(200);
    expect(Math.abs(Number(res.headers['ratelimit-reset']) - secondsToWindowEnd(period))).toBeLessThanOrEqual(2);
    const rows = await t.orm.em.fork().getConnection().execute<{ w: Date }[]>('select window_start as w from api_key_usage where key_id = ?', [k.id]);
    const now = new Date();
    const start = period === 'day' ? Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) : Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    expect(new Date(rows[0].w).getTime()).toBe(start);
  });

  it('a new window starts from zero', async () => {
    const k = await keyWith(t, await createTenant(t), { usageLimit: 1, usagePeriod: 'hour' });
    // The previous hour's window is full; it does not count against this one.
    await t.orm.em
      .fork()
      .getConnection()
      .execute(`insert into api_key_usage (key_id, window_start, count) values (?, date_trunc('hour', now(), 'UTC') - interval '1 hour', 50)`, [k.id]);
    const res = await rest(t, k.key).get('/companies/me');
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-remaining']).toBe('0');
  });

  it('keys without a limit get no RateLimit headers and no counter', async () => {
    const tenant = await createTenant(t);
    const res = await rest(t, tenant).get('/customers');
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-limit']).toBeUndefined();
    const rows = await t.orm.em.fork().getConnection().execute<{ n: number }[]>('select count(*)::int as n from api_key_usage');
    expect(rows[0].n).toBe(0);
  });

  it('a request refused by the IP allow-list is not counted', async () => {
    const k = await keyWith(t, await createTenant(t), { allowIps: ['10.0.0.0/8'], usageLimit: 5, usagePeriod: 'hour' });
    const outside = await request(t.app).get('/api/v1/customers').set('Authorization', `Bearer ${k.key}`).set('X-Forwarded-For', '192.0.2.1');
    expect(outside.status).toBe(403);
    expect(outside.body.error.code).toBe('IP_RESTRICTED');
    expect(await counted(k.id)).toBe(0);
    const inside = await request(t.app).get('/api/v1/customers').set('Authorization', `Bearer ${k.key}`).set('X-Forwarded-For', '10.0.0.1');
    expect(inside.status).toBe(200);
    expect(inside.headers['ratelimit-remaining']).toBe('4');
    expect(await counted(k.id)).toBe(1);
  });

  it('counts concurrent requests exactly', async () => {
    const k = await keyWith(t, await createTenant(t), { usageLimit: 10, usagePeriod: 'hour' });
    const results = await Promise.all(Array.from({ length: 14 }, () => rest(t, k.key).get('/companies/me')));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 403)).toHaveLength(4);
    expect(results.map((r) => Number(r.headers['ratelimit-remaining'])).sort((a, b) => a - b)).toEqual([0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('usage limit validation (admin create-key)', () => {
  it.each([
    [{ usageLimit: 0, usagePeriod: 'hour' }, /^usage-limit must be/],
    [{ usageLimit: -1, usagePeriod: 'hour' }, /^usage-limit must be/],
    [{ usageLimit: 1.5, usagePeriod: 'hour' }, /^usage-limit must be/],
    [{ usageLimit: 2 ** 31, usagePeriod: 'hour' }, /^usage-limit must be/],
    [{ usageLimit: 10, usagePeriod: 'week' }, /^usage-period must be one of hour, day, month/],
    [{ usageLimit: 10 }, /go together/],
    [{ usagePeriod: 'day' }, /go together/],
  ])('refuses %j', (o, message) => {
    expect(() => keyOptions(o as never)).toThrow(message);
  });

  it('accepts a positive limit with a period', () => {
    expect(keyOptions({ usageLimit: 1000, usagePeriod: 'month' })).toMatchObject({ usageLimit: 1000, usagePeriod: 'month' });
  });
});
