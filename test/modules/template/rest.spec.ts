import { createTenant, rest, useTestApp } from '../../helpers/app';
import { makeTemplate, tiered } from '../../helpers/estimate-fixtures';

const t = useTestApp();

describe('REST templates', () => {
  it('creates flat with defaults and assigned add-on ids, and gets it back', async () => {
    const a = await createTenant(t);
    const res = await rest(t, a).post('/templates', { name: ' Drain clean ', pricing_type: 'flat', base_price: 150, addons: [{ name: 'Camera', price: 99.5 }] });
    expect(res.status).toBe(200);
    const tpl = res.body.data;
    expect(tpl).toMatchObject({ name: 'Drain clean', description: null, pricing_type: 'flat', base_price: 150, tiers: null, tax_rate: 0, deleted_at: null });
    expect(tpl.addons).toEqual([{ id: expect.any(String), name: 'Camera', price: 99.5 }]);
    expect((await rest(t, a).get(`/templates/${tpl.uuid}`)).body).toEqual({ success: true, data: tpl });
  });

  it('creates tiered with at least one tier', async () => {
    const a = await createTenant(t);
    const tpl = await makeTemplate(t, a, tiered);
    expect(tpl).toMatchObject({ pricing_type: 'tiered', base_price: null, tiers: { good: 89, better: 129.5, best: 199 } });
    const one = await makeTemplate(t, a, { ...tiered, tiers: { best: 10 } });
    expect(one.tiers).toEqual({ good: null, better: null, best: 10 });
  });

  it.each([
    [{ pricing_type: 'flat', base_price: 1 }, 'name'],
    [{ name: 'X', base_price: 1 }, 'pricing_type'],
    [{ name: 'X', pricing_type: 'Flat', base_price: 1 }, 'pricing_type'],
    [{ name: 'X', pricing_type: 'flat' }, 'base_price'],
    [{ name: 'X', pricing_type: 'flat', base_price: -1 }, 'base_price'],
    [{ name: 'X', pricing_type: 'flat', base_price: 1.005 }, 'base_price'],
    [{ name: 'X', pricing_type: 'flat', base_price: 1, tiers: { good: 1 } }, 'tiers'],
    [{ name: 'X', pricing_type: 'tiered' }, 'tiers'],
    [{ name: 'X', pricing_type: 'tiered', tiers: {} }, 'tiers'],
    [{ name: 'X', pricing_type: 'tiered', tiers: { good: 1, premium: 2 } }, 'tiers.premium'],
    [{ name: 'X', pricing_type: 'tiered', tiers: { good: 1 }, base_price: 5 }, 'base_price'],
    [{ name: 'X', pricing_type: 'flat', base_price: 1, tax_rate: 101 }, 'tax_rate'],
    [{ name: 'X', pricing_type: 'flat', base_price: 1, tax_rate: 1.00001 }, 'tax_rate'],
    [{ name: 'X', pricing_type: 'flat', base_price: 1, addons: [{ name: 'A' }] }, 'addons[0].price'],
    [{ name: 'X', pricing_type: 'flat', base_price: 1, addons: [{ id: 'a', name: 'A', price: 1 }, { id: 'a', name: 'B', price: 2 }] }, 'addons[1].id'],
    [{ name: 'X', pricing_type: 'flat', base_price: 1, addons: {} }, 'addons'],
    [{ name: 'X', pricing_type: 'flat', base_price: 1, uuid: '00000000-0000-4000-8000-000000000000' }, 'uuid'],
  ])('refuses %j naming %s', async (body, field) => {
    const a = await createTenant(t);
    const res = await rest(t, a).post('/templates', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('updates partially; switching pricing type clears the other prices; GET → PUT works', async () => {
    const a = await createTenant(t);
    const tpl = await makeTemplate(t, a);
    const got = (await rest(t, a).get(`/templates/${tpl.uuid}`)).body.data;
    const same = await rest(t, a).put(`/templates/${tpl.uuid}`, { ...got, description: 'Gas or electric' });
    expect(same.status).toBe(200);
    expect(same.body.data).toMatchObject({ description: 'Gas or electric', addons: got.addons, base_price: 1000 });
    expect((await rest(t, a).put(`/templates/${tpl.uuid}`, { pricing_type: 'tiered' })).status).toBe(400);
    const sw = await rest(t, a).put(`/templates/${tpl.uuid}`, { pricing_type: 'tiered', tiers: { good: 5 } });
    expect(sw.body.data).toMatchObject({ pricing_type: 'tiered', base_price: null, tiers: { good: 5, better: null, best: null } });
    expect((await rest(t, a).put(`/templates/${tpl.uuid}`, { name: null })).status).toBe(400);
    expect((await rest(t, a).put(`/templates/${tpl.uuid}`, { created_at: '2020-01-01T00:00:00.000Z' })).status).toBe(400);
  });

  it('lists newest first, soft deletes, keeps companies apart', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other' });
    const t1 = await makeTemplate(t, a, { name: 'One' });
    const t2 = await makeTemplate(t, a, { name: 'Two' });
    expect((await rest(t, a).get('/templates')).body.data.templates.map((x: { name: string }) => x.name)).toEqual(['Two', 'One']);
    expect((await rest(t, b).get('/templates')).body.data.pagination.total).toBe(0);
    expect((await rest(t, b).get(`/templates/${t1.uuid}`)).status).toBe(404);
    expect((await rest(t, b).put(`/templates/${t1.uuid}`, { name: 'X' })).status).toBe(404);
    expect((await rest(t, b).delete(`/templates/${t1.uuid}`)).status).toBe(404);
    const del = await rest(t, a).delete(`/templates/${t2.uuid}`);
    expect(del.body).toEqual({ success: true, data: { message: expect.any(String) } });
    expect((await rest(t, a).get(`/templates/${t2.uuid}`)).status).toBe(404);
    expect((await rest(t, a).get('/templates')).body.data.templates).toHaveLength(1);
    expect((await rest(t, a).get('/templates?include_deleted=1')).body.data.templates).toHaveLength(2);
    expect((await rest(t, a).get('/templates/nope')).status).toBe(404);
  });
});
