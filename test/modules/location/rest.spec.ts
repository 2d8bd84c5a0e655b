import { Client } from 'pg';
import { createTenant, rest, useTestApp } from '../../helpers/app';

const t = useTestApp();
const base = { name: 'Main', address1: '1 Main St', city: 'Springfield', state: 'il', zip: '62701' };

describe('REST locations', () => {
  it('creates with defaults (is_active true, is_primary false, timezone New York)', async () => {
    const a = await createTenant(t);
    const res = await rest(t, a).post('/locations', { ...base, phone: '2175550100' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ state: 'IL', phone: '217-555-0100', is_active: true, is_primary: false, timezone: 'America/New_York', business_hours: null });
  });

  it.each([
    [{ ...base, state: 'XX' }, 'state'],
    [{ ...base, zip: '1234' }, 'zip'],
    [{ ...base, zip: '12345-12' }, 'zip'],
    [{ ...base, timezone: 'Mars/Olympus' }, 'timezone'],
    [{ ...base, phone: '555' }, 'phone'],
    [{ ...base, name: undefined }, 'name'],
    [{ ...base, address1: '' }, 'address1'],
    [{ ...base, business_hours: 'nine to five' }, 'business_hours'],
    [{ ...base, is_active: false }, 'is_active'],
    [{ ...base, default_pricing_set_uuid: 'x' }, 'default_pricing_set_uuid'],
  ])('refuses %j naming %s', async (body, field) => {
    const a = await createTenant(t);
    const res = await rest(t, a).post('/locations', body);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('keeps one primary location; the primary cannot be deleted', async () => {
    const a = await createTenant(t);
    const one = (await rest(t, a).post('/locations', { ...base, is_primary: true })).body.data;
    const two = (await rest(t, a).post('/locations', { ...base, name: 'Second', is_primary: true })).body.data;
    expect((await rest(t, a).get(`/locations/${one.uuid}`)).body.data.is_primary).toBe(false);
    expect(two.is_primary).toBe(true);
    const refused = await rest(t, a).delete(`/locations/${two.uuid}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_ERROR');
    expect((await rest(t, a).delete(`/locations/${one.uuid}`)).status).toBe(200);
    const upd = await rest(t, a).put(`/locations/${two.uuid}`, { is_active: false, is_primary: false });
    expect(upd.body.data).toMatchObject({ is_active: false, is_primary: false });
    expect((await rest(t, a).delete(`/locations/${two.uuid}`)).status).toBe(200);
  });

  it('a delete and a make-primary of one location, racing, never leave a deleted primary', async () => {
    const a = await createTenant(t);
    await rest(t, a).post('/locations', { ...base, is_primary: true });
    const probe = new Client({ connectionString: t.url });
    await probe.connect();
    try {
      for (let round = 0; round < 4; round++) {
        const x = (await rest(t, a).post('/locations', { ...base, name: `Racing ${round}` })).body.data;
        // Both requests queue behind the company's primary-location lock, held here, and then run
        // one after the other in either order; each must judge the other's committed result.
        await probe.query('begin');
        await probe.query(`select pg_advisory_xact_lock(hashtext('primary-location:' || $1))`, [a.companyUuid]);
        const del = rest(t, a).delete(`/locations/${x.uuid}`).then((r) => r);
        const put = rest(t, a).put(`/locations/${x.uuid}`, { is_primary: true }).then((r) => r);
        for (let i = 0; i < 200; i++) {
          const { rows } = await probe.query(
            `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`,
          );
          if (rows[0].n >= 2) break;
          await new Promise((r) => setTimeout(r, 25));
        }
        await probe.query('commit');
        const [d, p] = await Promise.all([del, put]);
        // Delete first: the location is gone (404 for the update). Make-primary first: a primary cannot be deleted (400).
        expect(['200/404', '400/200']).toContain(`${d.status}/${p.status}`);
        const { rows } = await probe.query(`select is_primary, deleted_at from locations where uuid = $1`, [x.uuid]);
        expect(rows[0].is_primary && rows[0].deleted_at !== null).toBe(false);
        const primaries = await probe.query(`select count(*)::int as n from locations where company_uuid = $1 and is_primary and deleted_at is null`, [a.companyUuid]);
        expect(primaries.rows[0].n).toBe(1);
      }
    } finally {
      await probe.end();
    }
  });

  it('keeps companies apart', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other' });
    const loc = (await rest(t, a).post('/locations', base)).body.data;
    expect((await rest(t, b).get(`/locations/${loc.uuid}`)).status).toBe(404);
    expect((await rest(t, b).put(`/locations/${loc.uuid}`, { name: 'x' })).status).toBe(404);
    expect((await rest(t, b).delete(`/locations/${loc.uuid}`)).status).toBe(404);
    expect((await rest(t, b).get('/locations')).body.data.locations).toEqual([]);
  });
});
