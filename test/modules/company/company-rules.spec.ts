import { useTestApp, createTenant, rest, Tenant, useDbClient } from '../../helpers/app';
import { makeInvoice } from '../../helpers/billing';
import { companyTimezone } from '../../../src/data/company-time';
import type { RequestContext } from '../../../src/data/context';
import { TENANT_FILTER } from '../../../src/data/base.entity';
import { Company } from '../../../src/modules/company/company.entity';
import { companyTodayIn, companyTodaySql, DEFAULT_TIMEZONE } from '../../../src/modules/company/company.rules';

// "Today" of a company (src/modules/company/company.rules.ts) in its two forms over the same
// locations and instants: the TS form (the time zone read through the ORM, then companyTodayIn)
// and the SQL form run in PostgreSQL; and the events trigger's copy (migration 0010) against the rule.

const t = useTestApp();
const db = useDbClient();

const location = (o: object) => ({ name: 'Shop', address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701', ...o });

/** Companies whose time zone comes from each case of the rule. */
async function companies(): Promise<Array<{ name: string; tenant: Tenant; zone: string }>> {
  const none = await createTenant(t, { name: 'No locations' });
  const branchOnly = await createTenant(t, { name: 'Branch only' });
  expect((await rest(t, branchOnly).post('/locations', location({ timezone: 'Asia/Tokyo' }))).status).toBe(200);
  const primary = await createTenant(t, { name: 'Primary' });
  expect((await rest(t, primary).post('/locations', location({ timezone: 'Asia/Tokyo' }))).status).toBe(200);
  expect((await rest(t, primary).post('/locations', location({ timezone: 'Pacific/Kiritimati', is_primary: true }))).status).toBe(200);
  const deletedPrimary = await createTenant(t, { name: 'Deleted primary' });
  const gone = (await rest(t, deletedPrimary).post('/locations', location({ timezone: 'Pacific/Pago_Pago', is_primary: true }))).body.data;
  // The API refuses to delete a primary location; a row soft-deleted otherwise must not count.
  await db.query(`update locations set deleted_at = now() where uuid = $1`, [gone.uuid]);
  return [
    { name: 'no location', tenant: none, zone: DEFAULT_TIMEZONE },
    { name: 'a location that is not primary', tenant: branchOnly, zone: DEFAULT_TIMEZONE },
    { name: 'a primary location', tenant: primary, zone: 'Pacific/Kiritimati' },
    { name: 'a deleted primary location', tenant: deletedPrimary, zone: DEFAULT_TIMEZONE },
  ];
}

// Instants either side of midnight in the zones above and across a DST change in New York.
const INSTANTS = ['2026-03-08T04:59:59.999Z', '2026-03-08T05:00:00Z', '2026-03-08T06:59:59Z', '2026-03-08T07:00:00Z', '2026-11-01T03:59:59Z', '2026-11-01T04:00:00Z',
  '2026-11-01T05:00:00Z', '2026-12-31T09:59:59Z', '2026-12-31T10:00:00Z', '2026-12-31T23:30:00Z'];

it('the TS form and the SQL form give the same date for every company and instant', async () => {
  for (const c of await companies()) {
    // As a request's EntityManager is (src/auth/authenticate.ts): scoped to the company.
    const em = t.orm.em.fork();
    em.setFilterParams(TENANT_FILTER, { companyId: c.tenant.companyUuid });
    const ctx = { em, company: em.getReference(Company, c.tenant.companyUuid), companyId: c.tenant.companyUuid } as unknown as RequestContext;
    const zone = await companyTimezone(ctx);
    expect([c.name, zone]).toEqual([c.name, c.zone]);
    for (const at of INSTANTS) {
      const { rows } = await db.query(`select ${companyTodaySql('$1::uuid', '$2::timestamptz')}::text as today`, [c.tenant.companyUuid, at]);
      expect([c.name, at, rows[0].today]).toEqual([c.name, at, companyTodayIn(zone, new Date(at))]);
    }
  }
});

it("the events trigger records an invoice's company_today as the rule's SQL form gives it in the same transaction", async () => {
  const tenant = await createTenant(t);
  expect((await rest(t, tenant).post('/locations', location({ timezone: 'Pacific/Kiritimati', is_primary: true }))).status).toBe(200);
  const invoice = await makeInvoice(t, tenant);
  await db.query('begin');
  try {
    await db.query(`update invoices set notes = 'seen' where uuid = $1`, [invoice.uuid]);
    const { rows } = await db.query(
      `select e.row ->> 'company_today' as trigger_form, ${companyTodaySql('e.company_uuid')}::text as rule from events e where e.xid = pg_current_xact_id() and e.resource = 'invoice'`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.trigger_form).toBe(r.rule);
  } finally {
    await db.query('rollback');
  }
});
