import { admin as cliAdmin } from '../helpers/cli';
import request from 'supertest';
import { hashApiKey } from '../../src/auth/api-key';
import { createTenant, useTestApp } from '../helpers/app';

// X-Forwarded-For stands for the client address (supertest's connection is the trusted proxy).
const t = useTestApp({ TRUST_PROXY: 'loopback' });

const admin = (...args: string[]) => cliAdmin(t, ...args);

describe('admin CLI: keys with access rules', () => {
  it('creates a key with an allow-list and a usage limit that the API enforces; list-keys shows the rules, no secret', async () => {
    const a = await createTenant(t);
    const made = await admin('create-key', '--company', a.companyUuid, '--allow-ip', '203.0.113.0/24, 2001:DB8::/32,198.51.100.7', '--usage-limit', '2', '--usage-period', 'day');
    expect(made.code).toBe(0);
    expect(made.out.key).toMatchObject({ allowed_ips: ['203.0.113.0/24', '2001:db8::/32', '198.51.100.7/32'], usage_limit: 2, usage_period: 'day' });
    const key: string = made.out.api_key;
    const call = (ip: string) => request(t.app).get('/api/v1/companies/me').set('Authorization', `Bearer ${key}`).set('X-Forwarded-For', ip);

    expect((await call('192.0.2.1')).body.error.code).toBe('IP_RESTRICTED');
    const ok = await call('2001:db8::42');
    expect(ok.status).toBe(200);
    expect(ok.headers['ratelimit-remaining']).toBe('1');
    expect((await call('198.51.100.7')).status).toBe(200);
    const over = await call('203.0.113.200');
    expect(over.status).toBe(403);
    expect(over.body.error.code).toBe('USAGE_LIMIT_EXCEEDED');

    const listed = await admin('list-keys', '--company', a.companyUuid);
    const row = listed.out.keys.find((k: { id: string }) => k.id === made.out.key.id);
    expect(row).toMatchObject({ key_prefix: key.slice(0, 8), allowed_ips: made.out.key.allowed_ips, usage_limit: 2, usage_period: 'day', revoked_at: null });
    const text = JSON.stringify(listed.out);
    expect(text).not.toContain(key);
    expect(text).not.toContain(hashApiKey(key));
  });

  it.each([
    [['--allow-ip', '10.0.0.0/33'], 'allow-ip has "10.0.0.0/33", which is not an IPv4 or IPv6 address or CIDR range'],
    [['--allow-ip', 'office.example.com'], 'allow-ip has "office.example.com"'],
    [['--usage-limit', '0', '--usage-period', 'hour'], 'usage-limit must be a whole number from 1 to 2147483647'],
    [['--usage-limit', '10', '--usage-period', 'week'], 'usage-period must be one of hour, day, month'],
    [['--usage-limit', '10'], 'go together'],
  ])('refuses %j: exit 1 with a message naming the value', async (flags, message) => {
    const a = await createTenant(t);
    const res = await admin('create-key', '--company', a.companyUuid, ...flags);
    expect(res.code).toBe(1);
    expect(res.out.error.code).toBe('VALIDATION_ERROR');
    expect(res.out.error.message).toContain(message);
    const rows = await t.orm.em.fork().getConnection().execute<{ n: number }[]>('select count(*)::int as n from api_keys where company_uuid = ?', [a.companyUuid]);
    expect(rows[0].n).toBe(1);
  });
});
