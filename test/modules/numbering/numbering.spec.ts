import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../../src/app';
import { loadConfig } from '../../../src/config/index';
import { initOrm, Orm } from '../../../src/db/orm';
import { createTenant, gql, rest, Tenant, useTestApp } from '../../helpers/app';
import { makeCustomer, makeTemplate } from '../../helpers/estimate-fixtures';

const t = useTestApp();

const defaults = {
  invoice: { prefix: 'INV-', padding: 4, next_number: 1, next_number_formatted: 'INV-0001', has_override: false },
  estimate: { prefix: 'EST-', padding: 4, next_number: 1, next_number_formatted: 'EST-0001', has_override: false },
};

async function estimateMaker(tenant: Tenant) {
  const customer = await makeCustomer(t, tenant);
  const template = await makeTemplate(t, tenant);
  return (app: Express = t.app) =>
    request(app).post('/api/v1/estimates').set('Authorization', `Bearer ${tenant.key}`).send({ customer_uuid: customer.uuid, template_uuid: template.uuid });
}

describe('numbering format', () => {
  it('pads without cutting and keeps the prefix (numbering_format, the one home of the format)', async () => {
    const format = async (prefix: string, padding: number, n: number) =>
      (await t.orm.em.getConnection().execute(`select numbering_format(?, ?, ?) as f`, [prefix, padding, n]))[0].f;
    expect(await format('INV-', 4, 1)).toBe('INV-0001');
    expect(await format('', 0, 42)).toBe('42');
    expect(await format('E/', 2, 12345)).toBe('E/12345');
  });
});

describe('numbering settings', () => {
  it('GET shows the defaults on both surfaces', async () => {
    const a = await createTenant(t);
    expect((await rest(t, a).get('/numbering')).body).toEqual({ success: true, data: defaults });
    const g = await gql(t, a, '{ numbering { invoice { prefix padding nextNumber nextNumberFormatted hasOverride } estimate { nextNumberFormatted } } }');
    expect(g.data.numbering).toEqual({ invoice: { prefix: 'INV-', padding: 4, nextNumber: 1, nextNumberFormatted: 'INV-0001', hasOverride: false }, estimate: { nextNumberFormatted: 'EST-0001' } });
  });

  it('PUT changes only the fields sent and answers with a message and the settings', async () => {
    const a = await createTenant(t);
    const res = await rest(t, a).put('/numbering', { estimate: { prefix: 'Q-', padding: 6, next_number: 100 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      message: expect.any(String),
      invoice: defaults.invoice,
      estimate: { prefix: 'Q-', padding: 6, next_number: 100, next_number_formatted: 'Q-000100', has_override: false },
    });
    const make = await estimateMaker(a);
    expect((await make()).body.data.estimate_number).toBe('Q-000100');
    expect((await rest(t, a).get('/numbering')).body.data.estimate.next_number).toBe(101);
    // An empty prefix is allowed (numbers without one).
    expect((await rest(t, a).put('/numbering', { invoice: { prefix: '', padding: 0 } })).body.data.invoice.next_number_formatted).toBe('1');
  });

  it.each([
    [{ invoice: { prefix: 'INV 2026' } }, 'invoice.prefix'],
    [{ invoice: { prefix: 'x'.repeat(21) } }, 'invoice.prefix'],
    [{ estimate: { padding: 13 } }, 'estimate.padding'],
    [{ estimate: { padding: -1 } }, 'estimate.padding'],
    [{ estimate: { padding: 2.5 } }, 'estimate.padding'],
    [{ estimate: { next_number: 0 } }, 'estimate.next_number'],
    [{ estimate: { override_number: 0 } }, 'estimate.override_number'],
    [{ estimate: { next_number: null } }, 'estimate.next_number'],
    [{ estimate: { colour: 'red' } }, 'estimate.colour'],
    [{ quote: {} }, 'quote'],
  ])('refuses %j naming %s, changing nothing', async (body, field) => {
    const a = await createTenant(t);
    const res = await rest(t, a).put('/numbering', { invoice: { next_number: 7 }, ...body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect((await rest(t, a).get('/numbering')).body.data).toEqual(defaults);
  });

  it('needs the custom_numbering add-on on both surfaces (GET does not)', async () => {
    const a = await createTenant(t, { addons: [] });
    const res = await rest(t, a).put('/numbering', { invoice: { prefix: 'X-' } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('ADDON_REQUIRED');
    const g = await gql(t, a, 'mutation { updateNumbering(input: { invoice: { prefix: "X-" } }) { invoice { prefix } } }');
    expect(g.errors?.[0].extensions.code).toBe('ADDON_REQUIRED');
    expect((await rest(t, a).get('/numbering')).body.data).toEqual(defaults);
  });

  it('one-time override: taken once, counter untouched; null clears; a taken override is 400', async () => {
    const a = await createTenant(t);
    const make = await estimateMaker(a);
    expect((await make()).body.data.estimate_number).toBe('EST-0001');
    const taken = await rest(t, a).put('/numbering', { estimate: { override_number: 1 } });
    expect(taken.status).toBe(400);
    expect(taken.body.error.details[0].field).toBe('estimate.override_number');
    // The override is checked with the prefix sent in the same request.
    expect((await rest(t, a).put('/numbering', { estimate: { override_number: 1, prefix: 'E-' } })).status).toBe(200);
    await rest(t, a).put('/numbering', { estimate: { prefix: 'EST-' } });
    const set = await rest(t, a).put('/numbering', { estimate: { override_number: 500 } });
    expect(set.body.data.estimate).toMatchObject({ next_number: 2, next_number_formatted: 'EST-0500', has_override: true });
    expect((await make()).body.data.estimate_number).toBe('EST-0500');
    expect((await make()).body.data.estimate_number).toBe('EST-0002');
    await rest(t, a).put('/numbering', { estimate: { override_number: 900 } });
    const cleared = await rest(t, a).put('/numbering', { estimate: { override_number: null } });
    expect(cleared.body.data.estimate).toMatchObject({ has_override: false, next_number_formatted: 'EST-0003' });
  });

  it('skips taken numbers after a move down or a prefix/padding change (deleted ones count)', async () => {
    const a = await createTenant(t);
    const make = await estimateMaker(a);
    const first = (await make()).body.data;
    await make();
    await make(); // EST-0001..3
    await rest(t, a).delete(`/estimates/${first.uuid}`);
    const down = await rest(t, a).put('/numbering', { estimate: { next_number: 1 } });
    expect(down.body.data.estimate).toMatchObject({ next_number: 1, next_number_formatted: 'EST-0004' });
    expect((await make()).body.data.estimate_number).toBe('EST-0004');
    await rest(t, a).put('/numbering', { estimate: { padding: 1, next_number: 2 } });
    expect((await make()).body.data.estimate_number).toBe('EST-2'); // 'EST-2' ≠ 'EST-0002'
    await rest(t, a).put('/numbering', { estimate: { padding: 4, next_number: 2 } });
    expect((await make()).body.data.estimate_number).toBe('EST-0005');
  });

  it('GraphQL updateNumbering returns {invoice, estimate}; errors name camelCase fields', async () => {
    const a = await createTenant(t);
    const ok = await gql(t, a, 'mutation($i: NumberingUpdateInput!) { updateNumbering(input: $i) { invoice { prefix nextNumber hasOverride nextNumberFormatted } estimate { prefix } } }', {
      i: { invoice: { prefix: 'F#', padding: 2, nextNumber: 7, overrideNumber: 3 } },
    });
    expect(ok.data.updateNumbering).toEqual({ invoice: { prefix: 'F#', nextNumber: 7, hasOverride: true, nextNumberFormatted: 'F#03' }, estimate: { prefix: 'EST-' } });
    const bad = await gql(t, a, 'mutation { updateNumbering(input: { estimate: { padding: 20 } }) { estimate { padding } } }');
    expect(bad.errors?.[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(bad.errors?.[0].extensions.details?.[0].field).toBe('estimate.padding');
  });
});

describe('numbering under concurrency', () => {
  const extra: Array<{ orm: Orm; app: Express; close: () => Promise<void> }> = [];
  beforeAll(async () => {
    // Separate ORMs (separate connection pools) on the same database, like separate processes.
    for (let i = 0; i < 3; i++) {
      const orm = await initOrm(t.url, 4);
      const built = await createApp({ orm, config: loadConfig({ ...process.env, DATABASE_URL: t.url }) });
      extra.push({ orm, app: built.app, close: built.close });
    }
  });
  afterAll(async () => {
    for (const e of extra) {
      await e.close();
      await e.orm.close(true);
    }
  });

  it('50 concurrent creates over several connections get 50 distinct, gap-free numbers', async () => {
    const a = await createTenant(t);
    const make = await estimateMaker(a);
    const apps = [t.app, ...extra.map((e) => e.app)];
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => make(apps[i % apps.length])));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const numbers = results.map((r) => r.body.data.estimate_number).sort();
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `EST-${String(i + 1).padStart(4, '0')}`));
    expect((await rest(t, a).get('/numbering')).body.data.estimate.next_number).toBe(51);
  });

  it('settings changes interleaved with creates never give a number twice', async () => {
    const a = await createTenant(t);
    const make = await estimateMaker(a);
    const apps = [t.app, ...extra.map((e) => e.app)];
    const put = (app: Express, body: object) => request(app).put('/api/v1/numbering').set('Authorization', `Bearer ${a.key}`).send(body);
    const changes = [
      { estimate: { next_number: 1 } },
      { estimate: { prefix: 'Q-', padding: 2 } },
      { estimate: { prefix: 'EST-', padding: 4, next_number: 1 } },
      { estimate: { override_number: 3 } },
      { estimate: { padding: 3, next_number: 2 } },
      { estimate: { padding: 4, next_number: 1 } },
    ];
    const createJobs: Array<Promise<request.Response>> = [];
    const putJobs: Array<Promise<request.Response>> = [];
    for (let i = 0; i < 40; i++) {
      createJobs.push(make(apps[i % apps.length]));
      if (i % 7 === 3) putJobs.push(put(apps[(i + 1) % apps.length], changes[(i - 3) / 7]));
    }
    const [creates, puts] = await Promise.all([Promise.all(createJobs), Promise.all(putJobs)]);
    expect(creates).toHaveLength(40);
    expect(creates.every((r) => r.status === 200)).toBe(true);
    // An override may be refused when its number was taken meanwhile; nothing else fails.
    expect(puts.every((r) => r.status === 200 || (r.status === 400 && r.body.error.details[0].field === 'estimate.override_number'))).toBe(true);
    const numbers = creates.map((r) => r.body.data.estimate_number);
    expect(new Set(numbers).size).toBe(40);
    const all = (await rest(t, a).get('/estimates?limit=100')).body.data.estimates.map((e: { estimate_number: string }) => e.estimate_number);
    expect(new Set(all).size).toBe(40);
    // The next number offered is free too.
    const next = (await rest(t, a).get('/numbering')).body.data.estimate.next_number_formatted;
    expect(all).not.toContain(next);
  });
});
