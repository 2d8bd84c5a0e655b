import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { keyOptions } from '../../src/modules/company/company.admin';
import { createTenant, useTestApp } from '../helpers/app';
import { keyWith } from '../helpers/keys';

// Behind a trusted proxy (loopback: supertest's own connection) X-Forwarded-For names the client.
const t = useTestApp({ TRUST_PROXY: 'loopback' });

const restFrom = (key: string, ip: string) => request(t.app).get('/api/v1/customers').set('Authorization', `Bearer ${key}`).set('X-Forwarded-For', ip);
const gqlFrom = (key: string, ip: string) =>
  request(t.app).post('/graphql').set('Authorization', `Bearer ${key}`).set('X-Forwarded-For', ip).send({ query: '{ company { uuid } }' });

describe('IP allow-lists behind a trusted proxy', () => {
  it.each([
    ['10.0.0.0/8', '10.20.30.40', 200],
    ['10.0.0.0/8', '11.0.0.1', 403],
    ['203.0.113.7', '203.0.113.7', 200],
    ['203.0.113.7', '203.0.113.8', 403],
    ['2001:db8::/32', '2001:db8:1::5', 200],
    ['2001:db8::/32', '2001:db9::5', 403],
    // IPv4-mapped IPv6 clients match IPv4 rules and mapped rules match IPv4 clients.
    ['10.0.0.0/8', '::ffff:10.1.2.3', 200],
    ['10.0.0.0/8', '::ffff:11.1.2.3', 403],
    ['::ffff:192.0.2.0/120', '192.0.2.44', 200],
    ['::ffff:192.0.2.0/120', '192.0.3.44', 403],
    // An IPv6 rule never admits an IPv4 client by accident, and the reverse.
    ['2001:db8::/32', '10.0.0.1', 403],
    ['10.0.0.0/8', '2001:db8::1', 403],
  ])('allow-list %s, client %s: %i on REST and GraphQL', async (cidr, ip, status) => {
    const k = await keyWith(t, await createTenant(t), { allowIps: [cidr] });
    const r = await restFrom(k.key, ip);
    expect(r.status).toBe(status);
    const g = await gqlFrom(k.key, ip);
    expect(g.status).toBe(status);
    if (status === 403) {
      expect(r.body).toEqual({ success: false, data: null, error: { code: 'IP_RESTRICTED', message: expect.stringContaining('may not be used from') } });
      expect(g.body.errors[0].extensions.code).toBe('IP_RESTRICTED');
      expect(g.body.data ?? null).toBeNull();
    } else {
      expect(r.body.success).toBe(true);
      expect(g.body.data.company.uuid).toBe(k.companyUuid);
    }
  });

  it('any entry of a list admits; a key without a list is not restricted', async () => {
    const tenant = await createTenant(t);
    const k = await keyWith(t, tenant, { allowIps: ['192.0.2.0/24', '2001:db8::/32'] });
    expect((await restFrom(k.key, '2001:db8::9')).status).toBe(200);
    expect((await restFrom(k.key, '192.0.2.1')).status).toBe(200);
    expect((await restFrom(k.key, '198.51.100.1')).status).toBe(403);
    expect((await restFrom(tenant.key, '198.51.100.1')).status).toBe(200);
  });

  it('an unknown key is 401 before the IP check', async () => {
    const res = await restFrom('fsk_' + 'a'.repeat(40), '198.51.100.1');
    expect(res.status).toBe(401);
  });
});

describe('IP allow-list validation (admin create-key)', () => {
  it.each(['10.0.0.0/33', '10', '0x0a.0.0.1', 'fe80::1%eth0', 'example.com', '10.0.0.0/8/1', '::/129'])('refuses %s naming allow-ip', (cidr) => {
    expect(() => keyOptions({ allowIps: [cidr] })).toThrow(/^allow-ip has/);
  });

  it('stores canonical CIDRs: single addresses get /32 or /128, mapped ranges become IPv4', () => {
    expect(keyOptions({ allowIps: ['203.0.113.7', '2001:DB8:0::1', '::ffff:10.0.0.0/104', '10.0.0.0/8', '10.0.0.0/8'] }).allowIps).toEqual([
      '203.0.113.7/32',
      '2001:db8::1/128',
      '10.0.0.0/8',
    ]);
  });
});

describe('IP allow-lists without a trusted proxy', () => {
  const direct = useTestApp();

  // A real listener, so the socket address is what the rule sees.
  async function viaSocket(host: string, key: string, forwardedFor?: string, listenOn = host): Promise<number> {
    const server = http.createServer(direct.app);
    await new Promise<void>((resolve) => server.listen(0, listenOn, resolve));
    const { port } = server.address() as AddressInfo;
    try {
      return await new Promise<number>((resolve, reject) => {
        const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
        if (forwardedFor) headers['X-Forwarded-For'] = forwardedFor;
        const req = http.get({ host, port, path: '/api/v1/customers', headers }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
      });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('uses the socket address over IPv4 and IPv6, ignoring X-Forwarded-For', async () => {
    const tenant = await createTenant(direct);
    const v4 = await keyWith(direct, tenant, { allowIps: ['127.0.0.0/8'] });
    const v6 = await keyWith(direct, tenant, { allowIps: ['::1/128'] });
    expect(await viaSocket('127.0.0.1', v4.key)).toBe(200);
    expect(await viaSocket('::1', v4.key)).toBe(403);
    expect(await viaSocket('::1', v6.key)).toBe(200);
    expect(await viaSocket('127.0.0.1', v6.key)).toBe(403);
    // A spoofed header does not help when no proxy is trusted.
    expect(await viaSocket('::1', v4.key, '127.0.0.1')).toBe(403);
  });

  it('matches an IPv4 rule against a dual-stack socket (IPv4-mapped IPv6 address)', async () => {
    const tenant = await createTenant(direct);
    const v4 = await keyWith(direct, tenant, { allowIps: ['127.0.0.1'] });
    // Listening on '::' makes IPv4 clients appear as ::ffff:127.0.0.1.
    expect(await viaSocket('127.0.0.1', v4.key, undefined, '::')).toBe(200);
    // supertest's own ephemeral server listens the same way.
    expect((await request(direct.app).get('/api/v1/customers').set('Authorization', `Bearer ${v4.key}`)).status).toBe(200);
  });
});

describe('clientAddress', () => {
  it('gives for each request what parsing its address gives, though each address text is parsed once', () => {
    const { clientAddress, processAddress } = jest.requireActual('../../src/auth/ip-allow-list') as typeof import('../../src/auth/ip-allow-list');
    const texts = ['127.0.0.1', '::ffff:10.1.2.3', '::1', 'fe80::1%eth0', '2001:DB8::5', '::ffff:7f00:1', 'not an address', '10.0.0.1', '0x0a.1', ''];
    // One socket (a keep-alive connection) whose requests name different clients behind a proxy.
    const socket = { remoteAddress: undefined as string | undefined };
    for (let round = 0; round < 3; round++) {
      for (const raw of texts) {
        const expected = raw ? processAddress(raw) : null;
        expect(clientAddress({ ip: raw, socket } as never, true)).toBe(expected);
        socket.remoteAddress = raw;
        expect(clientAddress({ ip: '198.51.100.1', socket } as never, false)).toBe(expected);
      }
    }
    expect(processAddress('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(processAddress('fe80::1%eth0')).toBe('fe80::1');
  });
});
