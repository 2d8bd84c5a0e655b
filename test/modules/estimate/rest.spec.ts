import { createTenant, rest, useTestApp } from '../../helpers/app';
import { makeCustomer, makeEstimate, makeJob, makeLocation, makeTemplate, tiered } from '../../helpers/estimate-fixtures';

const t = useTestApp();

describe('REST estimates', () => {
  it('creates from a template: number, status, copied fields, amounts, embeds', async () => {
    const a = await createTenant(t);
    const customer = await makeCustomer(t, a);
    const template = await makeTemplate(t, a);
    const job = await makeJob(t, a, customer.uuid);
    const loc = await makeLocation(t, a);
    const res = await rest(t, a).post('/estimates', {
      customer_uuid: customer.uuid,
      template_uuid: template.uuid,
      job_uuid: job.uuid,
      location_uuid: loc.uuid,
      quantity: 2,
      selected_addons: ['haul'],
      service_description: 'Replace 40 gal tank',
    });
    expect(res.status).toBe(200);
    const e = res.body.data;
    expect(e).toMatchObject({
      estimate_number: 'EST-0001',
      status: 'Pending',
      template_name: 'Water heater install',
      pricing_type: 'flat',
      selected_tier: null,
      quantity: 2,
      selected_addons: ['haul'],
      adjustments: null,
      base_amount: 2000,
      addons_amount: 75,
      tax_amount: 171.19, // 2075 × 8.25% = 171.1875 → 171.19
      total_amount: 2246.19,
      customer_uuid: customer.uuid,
      job_uuid: job.uuid,
      template_uuid: template.uuid,
      location_uuid: loc.uuid,
      created_by_user_id: a.userId,
      responded_at: null,
      expires_at: null,
      deleted_at: null,
    });
    expect(e.customer).toEqual({ uuid: customer.uuid, first_name: 'Ada', last_name: 'Lovelace' });
    expect(e.job).toEqual({ uuid: job.uuid, job_number: job.job_number, title: 'Replace heater', status: 'New' });
    expect(e.template).toEqual({ uuid: template.uuid, name: 'Water heater install', pricing_type: 'flat' });
    expect(e.location).toEqual({ uuid: loc.uuid, name: 'Main', city: 'Springfield', state: 'IL' });
    const got = await rest(t, a).get(`/estimates/${e.uuid}`);
    expect(got.body).toEqual({ success: true, data: e });
    const list = await rest(t, a).get('/estimates');
    expect(list.body.data.estimates[0].customer).toEqual(e.customer);
    expect(list.body.data.estimates[0].job).toBeUndefined();
    expect(list.body.data.pagination).toEqual({ page: 1, limit: 50, total: 1, total_pages: 1 });
  });

  it('preview gives the spec shape and the same numbers as create', async () => {
    const a = await createTenant(t);
    const customer = await makeCustomer(t, a);
    const template = await makeTemplate(t, a, tiered);
    const body = { template_uuid: template.uuid, selected_tier: 'better', quantity: 3, adjustments: { tax_amount: 5 } };
    const p = await rest(t, a).post('/estimates/preview', body);
    expect(p.status).toBe(200);
    expect(p.body.data).toEqual({
      preview: { base_amount: 388.5, addons_amount: 0, tax_amount: 5, total_amount: 393.5 },
      breakdown: { base_amount: 388.5, addons: [], adjustments: { tax_amount: 5 } },
    });
    const created = (await rest(t, a).post('/estimates', { ...body, customer_uuid: customer.uuid })).body.data;
    expect(created).toMatchObject(p.body.data.preview);
    const withAddons = await makeTemplate(t, a);
    const p2 = await rest(t, a).post('/estimates/preview', { template_uuid: withAddons.uuid, selected_addons: ['permit', 'haul'] });
    expect(p2.body.data.breakdown.addons).toEqual([{ name: 'Permit', price: 49.99 }, { name: 'Haul away', price: 75 }]);
    expect(p2.body.data.preview).toEqual({ base_amount: 1000, addons_amount: 124.99, tax_amount: 92.81, total_amount: 1217.8 });
    // Nothing was created by the previews.
    expect((await rest(t, a).get('/estimates')).body.data.pagination.total).toBe(1);
  });

  it('preview accepts the create body and gives the numbers create gives', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other' });
    const customer = await makeCustomer(t, a);
    const template = await makeTemplate(t, a);
    const body = { customer_uuid: customer.uuid, template_uuid: template.uuid, quantity: 1.25, selected_addons: ['haul'], service_description: 'x', expires_at: '2999-01-01' };
    const p = await rest(t, a).post('/estimates/preview', body);
    expect(p.status).toBe(200);
    const created = (await rest(t, a).post('/estimates', body)).body.data;
    expect(created).toMatchObject(p.body.data.preview);
    const foreign = await rest(t, b).post('/estimates/preview', { template_uuid: (await makeTemplate(t, b)).uuid, customer_uuid: customer.uuid });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.details[0].field).toBe('customer_uuid');
    expect((await rest(t, a).post('/estimates/preview', { template_uuid: template.uuid, status: 'Pending' })).status).toBe(400);
  });

  it('adjustments replace computed amounts; tax follows the adjusted base', async () => {
    const a = await createTenant(t);
    const { estimate } = await makeEstimate(t, a, { adjustments: { base_amount: 900 } });
    expect(estimate).toMatchObject({ base_amount: 900, addons_amount: 0, tax_amount: 74.25, total_amount: 974.25, adjustments: { base_amount: 900 } });
  });

  it.each([
    [{ estimate_number: 'X-1' }, 'estimate_number'],
    [{ status: 'Accepted' }, 'status'],
    [{ total_amount: 5 }, 'total_amount'],
    [{ quantity: 0 }, 'quantity'],
    [{ quantity: 1.00001 }, 'quantity'],
    [{ selected_addons: ['nope'] }, 'selected_addons'],
    [{ selected_addons: 'haul' }, 'selected_addons'],
    [{ selected_tier: 'good' }, 'selected_tier'],
    [{ adjustments: { discount: 5 } }, 'adjustments'],
    [{ adjustments: { tax_amount: -1 } }, 'adjustments'],
    [{ expires_at: '2026-12-01T10:00:00' }, 'expires_at'],
    [{ customer_uuid: 'nope' }, 'customer_uuid'],
  ])('refuses %j naming %s', async (extra, field) => {
    const a = await createTenant(t);
    const customer = await makeCustomer(t, a);
    const template = await makeTemplate(t, a);
    const res = await rest(t, a).post('/estimates', { customer_uuid: customer.uuid, template_uuid: template.uuid, ...extra });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('tiered: needs a tier with a price', async () => {
    const a = await createTenant(t);
    const customer = await makeCustomer(t, a);
    const template = await makeTemplate(t, a, { ...tiered, tiers: { good: 50 } });
    const base = { customer_uuid: customer.uuid, template_uuid: template.uuid };
    for (const body of [base, { ...base, selected_tier: 'best' }]) {
      const res = await rest(t, a).post('/estimates', body);
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].field).toBe('selected_tier');
    }
    expect((await rest(t, a).post('/estimates', { ...base, selected_tier: 'good' })).body.data.total_amount).toBe(50);
    // A failed create uses up no number.
    expect((await rest(t, a).get('/estimates')).body.data.estimates[0].estimate_number).toBe('EST-0001');
  });

  it('keeps a snapshot: template changes do not change the estimate or its recomputation', async () => {
    const a = await createTenant(t);
    const { estimate, template } = await makeEstimate(t, a, { selected_addons: ['haul'] });
    await rest(t, a).put(`/templates/${template.uuid}`, { base_price: 5000, name: 'Renamed', addons: [], tax_rate: 0 });
    const res = await rest(t, a).put(`/estimates/${estimate.uuid}`, { quantity: 2 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ template_name: 'Water heater install', base_amount: 2000, addons_amount: 75, tax_amount: 171.19, total_amount: 2246.19 });
    expect(res.body.data.template.name).toBe('Renamed');
  });

  it('update: permitted fields only; GET → edit → PUT works; read-only fields 400 by name', async () => {
    const a = await createTenant(t);
    const { estimate } = await makeEstimate(t, a);
    const got = (await rest(t, a).get(`/estimates/${estimate.uuid}`)).body.data;
    const ok = await rest(t, a).put(`/estimates/${estimate.uuid}`, { ...got, internal_notes: 'call first', selected_addons: ['permit'] });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ internal_notes: 'call first', addons_amount: 49.99, tax_amount: 86.62, total_amount: 1136.61 });
    expect(new Date(ok.body.data.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(got.updated_at).getTime());
    for (const [field, value] of [['customer_uuid', '00000000-0000-4000-8000-000000000000'], ['template_name', 'X'], ['total_amount', 1], ['estimate_number', 'EST-9'], ['responded_at', '2026-01-01T00:00:00.000Z'], ['pricing_type', 'tiered']]) {
      const bad = await rest(t, a).put(`/estimates/${estimate.uuid}`, { [field as string]: value });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details[0].field).toBe(field);
    }
    expect((await rest(t, a).put(`/estimates/${estimate.uuid}`, { quantity: null })).status).toBe(400);
  });

  it('status: responded_at on accept/decline, cleared by Pending; Expired is read-only', async () => {
    const a = await createTenant(t);
    const { estimate } = await makeEstimate(t, a);
    const acc = (await rest(t, a).put(`/estimates/${estimate.uuid}`, { status: 'Accepted', response_notes: 'Go ahead' })).body.data;
    expect(acc).toMatchObject({ status: 'Accepted', response_notes: 'Go ahead' });
    expect(acc.responded_at).toMatch(/Z$/);
    const again = (await rest(t, a).put(`/estimates/${estimate.uuid}`, { status: 'Accepted' })).body.data;
    expect(again.responded_at).toBe(acc.responded_at);
    const pending = (await rest(t, a).put(`/estimates/${estimate.uuid}`, { status: 'Pending' })).body.data;
    expect(pending.responded_at).toBeNull();
    const bad = await rest(t, a).put(`/estimates/${estimate.uuid}`, { status: 'Expired' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('status');
  });

  it('expiry: computed at read time, filters match, answering needs a new expires_at', async () => {
    const a = await createTenant(t);
    const past = new Date(Date.now() - 60_000).toISOString();
    const { estimate: old } = await makeEstimate(t, a, { expires_at: past });
    const { estimate: fresh } = await makeEstimate(t, a, { expires_at: '2999-12-31' });
    expect(old.status).toBe('Expired');
    expect(fresh.status).toBe('Pending');
    // End of that day in the company timezone (America/New_York without a primary location).
    expect(fresh.expires_at).toBe('3000-01-01T04:59:59.999Z');
    const ids = async (q: string) => (await rest(t, a).get(`/estimates?${q}`)).body.data.estimates.map((e: { uuid: string }) => e.uuid);
    expect(await ids('status=expired')).toEqual([old.uuid]);
    expect(await ids('status=Pending')).toEqual([fresh.uuid]);
    expect((await ids('status=pending,EXPIRED')).length).toBe(2);
    expect((await rest(t, a).get('/estimates?status=Lost')).status).toBe(400);
    const refused = await rest(t, a).put(`/estimates/${old.uuid}`, { status: 'Accepted' });
    expect(refused.status).toBe(400);
    // GET → PUT with the computed status is fine and does not touch updated_at.
    const same = await rest(t, a).put(`/estimates/${old.uuid}`, { status: 'Expired' });
    expect(same.status).toBe(200);
    expect(same.body.data.updated_at).toBe(old.updated_at);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const accepted = await rest(t, a).put(`/estimates/${old.uuid}`, { status: 'Accepted', expires_at: future });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.status).toBe('Accepted');
    expect(accepted.body.data.responded_at).not.toBeNull();
  });

  it('filters by customer, job and search; soft delete', async () => {
    const a = await createTenant(t);
    const c1 = await makeCustomer(t, a);
    const c2 = await makeCustomer(t, a, { first_name: 'Grace' });
    const tpl = await makeTemplate(t, a);
    const job = await makeJob(t, a, c1.uuid);
    const e1 = (await rest(t, a).post('/estimates', { customer_uuid: c1.uuid, template_uuid: tpl.uuid, job_uuid: job.uuid, service_description: 'Basement REPAIR' })).body.data;
    const e2 = (await rest(t, a).post('/estimates', { customer_uuid: c2.uuid, template_uuid: tpl.uuid })).body.data;
    const ids = async (q: string) => (await rest(t, a).get(`/estimates?${q}`)).body.data.estimates.map((e: { uuid: string }) => e.uuid);
    expect(await ids(`customer_uuid=${c2.uuid}`)).toEqual([e2.uuid]);
    expect(await ids(`job_uuid=${job.uuid}`)).toEqual([e1.uuid]);
    expect(await ids('search=repair')).toEqual([e1.uuid]);
    expect(await ids('search=est-0002')).toEqual([e2.uuid]);
    expect(await ids('search=heater')).toEqual([e2.uuid, e1.uuid]);
    expect(await ids('job_uuid=00000000-0000-4000-8000-000000000000')).toEqual([]);
    expect((await rest(t, a).get('/estimates?job_uuid=bad')).status).toBe(400);
    const del = await rest(t, a).delete(`/estimates/${e1.uuid}`);
    expect(del.body).toEqual({ success: true, data: { message: expect.any(String) } });
    expect((await rest(t, a).get(`/estimates/${e1.uuid}`)).status).toBe(404);
    expect((await rest(t, a).put(`/estimates/${e1.uuid}`, { internal_notes: 'x' })).status).toBe(404);
    expect(await ids('include_deleted=true')).toEqual([e2.uuid, e1.uuid]);
    // A deleted estimate keeps its number: the next one does not reuse it.
    expect((await makeEstimate(t, a)).estimate.estimate_number).toBe('EST-0003');
  });

  it('keeps companies apart: foreign template, customer, job and location are unreferenceable', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other Co' });
    const mine = await makeCustomer(t, b);
    const myTemplate = await makeTemplate(t, b);
    const theirCustomer = await makeCustomer(t, a);
    const theirTemplate = await makeTemplate(t, a);
    const theirJob = await makeJob(t, a, theirCustomer.uuid);
    const theirLoc = await makeLocation(t, a);
    const { estimate } = await makeEstimate(t, a);
    const base = { customer_uuid: mine.uuid, template_uuid: myTemplate.uuid };
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const [field, foreign] of [['customer_uuid', theirCustomer.uuid], ['template_uuid', theirTemplate.uuid], ['job_uuid', theirJob.uuid], ['location_uuid', theirLoc.uuid]]) {
      const r1 = await rest(t, b).post('/estimates', { ...base, [field]: foreign });
      const r2 = await rest(t, b).post('/estimates', { ...base, [field]: missing });
      expect(r1.status).toBe(400);
      expect(r1.body.error.details[0].field).toBe(field);
      expect(r1.body.error.message).toBe(r2.body.error.message);
    }
    expect((await rest(t, b).post('/estimates/preview', { template_uuid: theirTemplate.uuid })).status).toBe(400);
    expect((await rest(t, b).get(`/estimates/${estimate.uuid}`)).status).toBe(404);
    expect((await rest(t, b).put(`/estimates/${estimate.uuid}`, { internal_notes: 'x' })).status).toBe(404);
    expect((await rest(t, b).delete(`/estimates/${estimate.uuid}`)).status).toBe(404);
    expect((await rest(t, b).get('/estimates')).body.data.pagination.total).toBe(0);
    // Numbering is per company.
    expect((await rest(t, b).post('/estimates', base)).body.data.estimate_number).toBe('EST-0001');
  });

  it('a job of another customer is refused; deleted references are refused', async () => {
    const a = await createTenant(t);
    const c1 = await makeCustomer(t, a);
    const c2 = await makeCustomer(t, a);
    const tpl = await makeTemplate(t, a);
    const job = await makeJob(t, a, c2.uuid);
    const res = await rest(t, a).post('/estimates', { customer_uuid: c1.uuid, template_uuid: tpl.uuid, job_uuid: job.uuid });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe('job_uuid');
    await rest(t, a).delete(`/templates/${tpl.uuid}`);
    const gone = await rest(t, a).post('/estimates', { customer_uuid: c1.uuid, template_uuid: tpl.uuid });
    expect(gone.status).toBe(400);
    expect(gone.body.error.details[0].field).toBe('template_uuid');
  });
});
