import { createTenant, rest, useTestApp } from '../../helpers/app';

const t = useTestApp();

describe('REST customers', () => {
  it('creates with defaults and normalised values, and gets it back', async () => {
    const a = await createTenant(t);
    const res = await rest(t, a).post('/customers', { first_name: '  Ada ', last_name: 'Lovelace', phone: '(217) 555 0101', email: 'ADA@Example.COM' });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const c = res.body.data;
    expect(c).toMatchObject({ first_name: 'Ada', phone: '217-555-0101', email: 'ada@example.com', customer_type: 'Residential', is_vip: false, deleted_at: null });
    expect(c.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const got = await rest(t, a).get(`/customers/${c.uuid}`);
    expect(got.body).toEqual({ success: true, data: c });
  });

  it('accepts address fields and 11-digit phones starting with 1', async () => {
    const a = await createTenant(t);
    const res = await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B', phone: '+1 217 555 0101', physical_address1: '1 Elm', billing_zip: '12345' });
    expect(res.body.data).toMatchObject({ phone: '217-555-0101', physical_address1: '1 Elm', billing_zip: '12345' });
  });

  it.each([
    [{ last_name: 'B' }, 'first_name'],
    [{ first_name: 'A', last_name: 'B', phone: '12345' }, 'phone'],
    [{ first_name: 'A', last_name: 'B', email: 'nope' }, 'email'],
    [{ first_name: 'A', last_name: 'B', is_vip: 'yes' }, 'is_vip'],
    [{ first_name: 'A', last_name: 'B', customer_type: 'residential' }, 'customer_type'],
    [{ first_name: 'A', last_name: 'B', uuid: '00000000-0000-0000-0000-000000000000' }, 'uuid'],
    [{ first_name: 'A', last_name: 'B', created_at: '2026-01-01T00:00:00Z' }, 'created_at'],
    [{ first_name: 'A', last_name: 'B', unknown_field: 1 }, 'unknown_field'],
    [{ first_name: 'A\u0000', last_name: 'B' }, 'first_name'],
    [{ first_name: 'x'.repeat(256), last_name: 'B' }, 'first_name'],
    [{ first_name: 'A', last_name: 'B', internal_flags: [1] }, 'internal_flags'],
    [{ first_name: 'A', last_name: 'B', primary_service_location_uuid: 'not-a-uuid' }, 'primary_service_location_uuid'],
  ])('refuses %j naming %s', async (body, field) => {
    const a = await createTenant(t);
    const res = await rest(t, a).post('/customers', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('partially updates: absent unchanged, null clears, "" is null, null on non-nullable is 400', async () => {
    const a = await createTenant(t);
    const c = (await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B', email: 'a@b.co', notes: 'n' })).body.data;
    const res = await rest(t, a).put(`/customers/${c.uuid}`, { email: null, notes: '' });
    expect(res.body.data).toMatchObject({ first_name: 'A', email: null, notes: null });
    expect((await rest(t, a).put(`/customers/${c.uuid}`, { first_name: null })).status).toBe(400);
    expect((await rest(t, a).put(`/customers/${c.uuid}`, { is_vip: null })).status).toBe(400);
  });

  it('GET → edit → PUT works; a changed read-only field is 400 naming it', async () => {
    const a = await createTenant(t);
    const c = (await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B' })).body.data;
    const edited = { ...c, first_name: 'Z' };
    const ok = await rest(t, a).put(`/customers/${c.uuid}`, edited);
    expect(ok.status).toBe(200);
    expect(ok.body.data.first_name).toBe('Z');
    const bad = await rest(t, a).put(`/customers/${c.uuid}`, { uuid: '00000000-0000-4000-8000-000000000000' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('uuid');
  });

  it('soft deletes: 404 afterwards, hidden from lists unless include_deleted', async () => {
    const a = await createTenant(t);
    const c = (await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B' })).body.data;
    const del = await rest(t, a).delete(`/customers/${c.uuid}`);
    expect(del.status).toBe(200);
    expect(typeof del.body.data.message).toBe('string');
    expect((await rest(t, a).get(`/customers/${c.uuid}`)).status).toBe(404);
    expect((await rest(t, a).put(`/customers/${c.uuid}`, { notes: 'x' })).status).toBe(404);
    expect((await rest(t, a).delete(`/customers/${c.uuid}`)).status).toBe(404);
    expect((await rest(t, a).get('/customers')).body.data.customers).toHaveLength(0);
    const all = (await rest(t, a).get('/customers?include_deleted=true')).body.data.customers;
    expect(all).toHaveLength(1);
    expect(all[0].deleted_at).not.toBeNull();
  });

  it('lists newest first with pagination, clamping and validation', async () => {
    const a = await createTenant(t);
    for (let i = 0; i < 5; i++) await rest(t, a).post('/customers', { first_name: `C${i}`, last_name: 'L' });
    const page = await rest(t, a).get('/customers?limit=2&page=2');
    expect(page.body.data.pagination).toEqual({ page: 2, limit: 2, total: 5, total_pages: 3 });
    expect(page.body.data.customers.map((c: { first_name: string }) => c.first_name)).toEqual(['C2', 'C1']);
    expect((await rest(t, a).get('/customers?limit=500')).body.data.pagination.limit).toBe(100);
    expect((await rest(t, a).get('/customers?page=99')).body.data.customers).toEqual([]);
    for (const q of ['page=0', 'limit=0', 'page=abc', 'limit=1.5', 'include_deleted=maybe', 'filter=nope', 'colour=red']) {
      expect((await rest(t, a).get(`/customers?${q}`)).status).toBe(400);
    }
  });

  it('filters and searches', async () => {
    const a = await createTenant(t);
    await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'Lovelace', phone: '217-555-0101', is_vip: true });
    await rest(t, a).post('/customers', { first_name: 'Alan', last_name: 'Turing', customer_type: 'Commercial', company_name: 'Enigma Works', email: 'alan@enigma.example' });
    const names = async (q: string) => (await rest(t, a).get(`/customers?${q}`)).body.data.customers.map((c: { first_name: string }) => c.first_name);
    expect(await names('filter=vip')).toEqual(['Ada']);
    expect(await names('filter=COMMERCIAL')).toEqual(['Alan']);
    expect(await names('filter=residential')).toEqual(['Ada']);
    expect((await names('filter=all')).length).toBe(2);
    expect(await names('search=ada%20love')).toEqual(['Ada']);
    expect(await names('search=ENIGMA')).toEqual(['Alan']);
    expect(await names('search=2175550101')).toEqual(['Ada']);
    expect(await names('search=555-0101')).toEqual(['Ada']);
    expect(await names('search=alan%40enigma')).toEqual(['Alan']);
    expect(await names('search=%25')).toEqual([]);
    expect((await names('search=')).length).toBe(2);
    // Each field matches on its own: no match spans two of them (last name + company name, or a
    // term carrying the separator the search joins the fields with).
    expect(await names('search=turingenigma')).toEqual([]);
    expect(await names('search=g%1Fenigma')).toEqual([]);
    expect(await names('search=ng%20e')).toEqual([]);
    // (by name: another customer's random uuid may contain "ada" too)
    const ada = (await rest(t, a).get('/customers?search=ada')).body.data.customers.find((c: { first_name: string }) => c.first_name === 'Ada');
    expect(await names(`search=${ada.uuid.slice(9, 23).toUpperCase()}`)).toEqual(['Ada']);
  });

  it('keeps companies apart: invisible, unchangeable, unreferenceable', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other Co' });
    const c = (await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B' })).body.data;
    const loc = (await rest(t, a).post('/locations', { name: 'L', address1: '1 St', city: 'X', state: 'NY', zip: '10001' })).body.data;
    expect((await rest(t, b).get(`/customers/${c.uuid}`)).status).toBe(404);
    expect((await rest(t, b).put(`/customers/${c.uuid}`, { notes: 'x' })).status).toBe(404);
    expect((await rest(t, b).delete(`/customers/${c.uuid}`)).status).toBe(404);
    expect((await rest(t, b).get('/customers')).body.data.pagination.total).toBe(0);
    const foreign = await rest(t, b).post('/customers', { first_name: 'A', last_name: 'B', primary_service_location_uuid: loc.uuid });
    const missing = await rest(t, b).post('/customers', { first_name: 'A', last_name: 'B', primary_service_location_uuid: '00000000-0000-4000-8000-000000000000' });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.details[0].field).toBe('primary_service_location_uuid');
    expect(foreign.body.error.message).toBe(missing.body.error.message);
  });

  it('404 for a non-UUID path id', async () => {
    const a = await createTenant(t);
    expect((await rest(t, a).get('/customers/123')).status).toBe(404);
  });
});

describe('REST customers referencing a deleted location', () => {
  it('keeps an unchanged reference on update but refuses a new one', async () => {
    const a = await createTenant(t);
    const loc = (await rest(t, a).post('/locations', { name: 'L', address1: '1 St', city: 'X', state: 'NY', zip: '10001' })).body.data;
    const c = (await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B', primary_service_location_uuid: loc.uuid })).body.data;
    await rest(t, a).delete(`/locations/${loc.uuid}`);
    const got = (await rest(t, a).get(`/customers/${c.uuid}`)).body.data;
    const put = await rest(t, a).put(`/customers/${c.uuid}`, { ...got, notes: 'still here' });
    expect(put.status).toBe(200);
    expect(put.body.data.primary_service_location_uuid).toBe(loc.uuid);
    const other = await rest(t, a).post('/customers', { first_name: 'C', last_name: 'D', primary_service_location_uuid: loc.uuid });
    expect(other.status).toBe(400);
  });
});

describe('REST record timestamps', () => {
  it('a new record has updated_at equal to created_at; an update moves only updated_at', async () => {
    const a = await createTenant(t);
    const c = (await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B' })).body.data;
    expect(c.updated_at).toBe(c.created_at);
    const u = (await rest(t, a).put(`/customers/${c.uuid}`, { notes: 'changed' })).body.data;
    expect(u.created_at).toBe(c.created_at);
    expect(u.updated_at >= c.updated_at).toBe(true);
  });
});
