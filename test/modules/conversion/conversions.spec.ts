import fc from 'fast-check';
import request from 'supertest';
import { createTenant, gql, rest, useTestApp } from '../../helpers/app';
import { makeCustomer, makeEstimate, makeJob, makeLocation, makeTemplate, tiered } from '../../helpers/estimate-fixtures';
import { estimateInvoiceLines, linesTotalCents } from '../../../src/modules/conversion/conversion.lines';
import { priceEstimate, PricingSnapshot, Tier } from '../../../src/modules/estimate/estimate.pricing';
import { computeTotals } from '../../../src/modules/invoice/invoice-totals';

const t = useTestApp();

async function estimateFor(a: Awaited<ReturnType<typeof createTenant>>, o: object = {}) {
  const customer = await makeCustomer(t, a);
  const template = await makeTemplate(t, a, tiered);
  const loc = await makeLocation(t, a);
  const res = await rest(t, a).post('/estimates', { customer_uuid: customer.uuid, template_uuid: template.uuid, location_uuid: loc.uuid, selected_tier: 'better', ...o });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return { customer, template, loc, estimate: res.body.data };
}

describe('estimate → job → invoice (REST)', () => {
  it('converts: job from the estimate, estimate linked and Accepted; twice is 409', async () => {
    const a = await createTenant(t);
    const { customer, loc, estimate } = await estimateFor(a, { quantity: 2 });
    const res = await rest(t, a).post(`/estimates/${estimate.uuid}/convert_to_job`, { scheduled_date: '2026-12-01', priority: 'High' });
    expect(res.status).toBe(200);
    const { job, estimate: e } = res.body.data;
    expect(job).toMatchObject({ title: 'AC tune-up', customer_uuid: customer.uuid, location_uuid: loc.uuid, estimated_amount: 259, scheduled_date: '2026-12-01', priority: 'High', status: 'New' });
    expect(e).toMatchObject({ uuid: estimate.uuid, job_uuid: job.uuid, status: 'Accepted' });
    expect(e.responded_at).toEqual(expect.any(String));
    const again = await rest(t, a).post(`/estimates/${estimate.uuid}/convert_to_job`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
  });

  it('refuses Declined and Expired estimates (400); foreign or unknown: 404', async () => {
    const a = await createTenant(t);
    const { estimate } = await estimateFor(a);
    await rest(t, a).put(`/estimates/${estimate.uuid}`, { status: 'Declined' });
    const declined = await rest(t, a).post(`/estimates/${estimate.uuid}/convert_to_job`);
    expect(declined.status).toBe(400);
    expect(declined.body.error.details[0].field).toBe('status');
    const { estimate: old } = await estimateFor(a, { expires_at: '2020-01-01T00:00:00Z' });
    expect((await rest(t, a).post(`/estimates/${old.uuid}/convert_to_job`)).status).toBe(400);
    const b = await createTenant(t, { name: 'Other' });
    const { estimate: theirs } = await estimateFor(b);
    expect((await rest(t, a).post(`/estimates/${theirs.uuid}/convert_to_job`)).status).toBe(404);
    expect((await rest(t, a).post(`/jobs/${(await makeJob(t, b, (await makeCustomer(t, b)).uuid)).uuid}/invoice`)).status).toBe(404);
    expect((await rest(t, b).get(`/estimates/${theirs.uuid}`)).body.data.job_uuid).toBeNull();
  });

  it('invoices a job from its Accepted estimate: lines, tax, discount, total to the cent', async () => {
    const a = await createTenant(t);
    const template = await makeTemplate(t, a); // flat 1000, add-ons haul 75 and permit 49.99, tax 8.25
    const customer = await makeCustomer(t, a);
    const est = await rest(t, a).post('/estimates', { customer_uuid: customer.uuid, template_uuid: template.uuid, quantity: 1.5, selected_addons: ['haul', 'permit'], adjustments: { base_amount: 1400 } });
    const conv = await rest(t, a).post(`/estimates/${est.body.data.uuid}/convert_to_job`);
    const job = conv.body.data.job;
    const res = await rest(t, a).post(`/jobs/${job.uuid}/invoice`, { notes: 'Thanks' });
    expect(res.status).toBe(200);
    const inv = res.body.data;
    expect(inv.total_amount).toBe(est.body.data.total_amount);
    expect(inv.line_items.map((l: { description: string; line_total: number }) => [l.description, l.line_total])).toEqual([
      ['Water heater install', 1500],
      ['Haul away', 75],
      ['Permit', 49.99],
    ]);
    expect(inv).toMatchObject({ discount_amount: 100, tax_amount: est.body.data.tax_amount, estimate_uuid: est.body.data.uuid, job_uuid: job.uuid, status: 'Pending', notes: 'Thanks' });
    // due_date: 30 days after the company's today (= issue_date)
    const issue = new Date(`${inv.issue_date}T00:00:00Z`);
    expect(inv.due_date).toBe(new Date(issue.getTime() + 30 * 86400_000).toISOString().slice(0, 10));
    expect((await rest(t, a).get(`/jobs/${job.uuid}`)).body.data.status).toBe('Invoiced');
  });

  it('a job without an estimate: one line of its actual, else estimated amount; POST /invoices rules apply', async () => {
    const a = await createTenant(t);
    const customer = await makeCustomer(t, a);
    const job = await makeJob(t, a, customer.uuid, { title: 'Fix leak', estimated_amount: 200, actual_amount: 180.5 });
    const res = await rest(t, a).post(`/jobs/${job.uuid}/invoice`, { due_date: '2099-01-31' });
    expect(res.body.data).toMatchObject({ due_date: '2099-01-31', total_amount: 180.5, line_items: [{ description: 'Fix leak', quantity: 1, unit_price: 180.5 }] });
    const bad = await rest(t, a).post(`/jobs/${job.uuid}/invoice`, { due_date: '2001-01-01' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('due_date');
    const noPct = await rest(t, a).post(`/jobs/${job.uuid}/invoice`, { invoice_type: 'Progress' });
    expect(noPct.body.error.details[0].field).toBe('progress_percentage');
    const pct = await rest(t, a).post(`/jobs/${job.uuid}/invoice`, { invoice_type: 'Progress', progress_percentage: 50 });
    expect(pct.body.data).toMatchObject({ total_amount: 90.25, invoice_type: 'Progress' });
  });

  it('two conversions at once: one job, the other 409', async () => {
    const a = await createTenant(t);
    const { estimate } = await estimateFor(a);
    const results = await Promise.all([1, 2].map(() => rest(t, a).post(`/estimates/${estimate.uuid}/convert_to_job`)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await rest(t, a).get('/jobs')).body.data.pagination.total).toBe(1);
  });

  it('honours Idempotency-Key: one job, one invoice', async () => {
    const a = await createTenant(t);
    const { estimate } = await estimateFor(a);
    const post = (path: string, key: string) => request(t.app).post(`/api/v1${path}`).set('Authorization', `Bearer ${a.key}`).set('Idempotency-Key', key).send({});
    const one = await post(`/estimates/${estimate.uuid}/convert_to_job`, 'k1');
    const two = await post(`/estimates/${estimate.uuid}/convert_to_job`, 'k1');
    expect(two.status).toBe(200);
    expect(two.headers['idempotent-replayed']).toBe('true');
    expect(two.body).toEqual(one.body);
    const jobUuid = one.body.data.job.uuid;
    const i1 = await post(`/jobs/${jobUuid}/invoice`, 'k2');
    const i2 = await post(`/jobs/${jobUuid}/invoice`, 'k2');
    expect(i2.body.data.uuid).toBe(i1.body.data.uuid);
    expect((await rest(t, a).get('/invoices')).body.data.pagination.total).toBe(1);
    expect((await rest(t, a).get('/jobs')).body.data.pagination.total).toBe(1);
  });
});

describe('estimate → job → invoice (GraphQL)', () => {
  it('convertEstimateToJob and invoiceJob, with errors and Idempotency-Key', async () => {
    const a = await createTenant(t);
    const { estimate } = await estimateFor(a);
    const conv = `mutation($u: UUID!, $i: ConvertEstimateInput) { convertEstimateToJob(uuid: $u, input: $i) { job { uuid title estimatedAmount } estimate { status jobUuid } } }`;
    const h = { 'Idempotency-Key': 'g1' };
    const r1 = await gql(t, a, conv, { u: estimate.uuid, i: { title: 'Tune-up visit' } }, h);
    expect(r1.data.convertEstimateToJob).toMatchObject({ job: { title: 'Tune-up visit', estimatedAmount: 129.5 }, estimate: { status: 'ACCEPTED' } });
    const r2 = await gql(t, a, conv, { u: estimate.uuid, i: { title: 'Tune-up visit' } }, h);
    expect(r2).toEqual(r1);
    const r3 = await gql(t, a, conv, { u: estimate.uuid });
    expect(r3.errors![0].extensions.code).toBe('CONFLICT');
    const inv = `mutation($j: UUID!, $i: InvoiceJobInput) { invoiceJob(jobUuid: $j, input: $i) { totalAmount estimateUuid lineItems { description lineTotal } } }`;
    const r4 = await gql(t, a, inv, { j: r1.data.convertEstimateToJob.job.uuid });
    expect(r4.data.invoiceJob).toEqual({ totalAmount: 129.5, estimateUuid: estimate.uuid, lineItems: [{ description: 'AC tune-up (Better)', lineTotal: 129.5 }] });
    const bad = await gql(t, a, inv, { j: r1.data.convertEstimateToJob.job.uuid, i: { dueDate: '2001-01-01' } });
    expect(bad.errors![0].extensions.details![0].field).toBe('dueDate');
  });
});

// Random tiers, quantities, add-ons, adjustments and tax rates.
const cents = fc.integer({ min: 0, max: 5_000_000 });
const arbEstimate = fc.record({
  tiered: fc.boolean(),
  tiers: fc.tuple(cents, cents, cents),
  base: cents,
  tier: fc.constantFrom<Tier>('good', 'better', 'best'),
  quantity: fc.integer({ min: 1, max: 1_000_000 }).map((n) => n / 10_000),
  addons: fc.array(fc.integer({ min: 0, max: 200_000 }), { maxLength: 5 }),
  pick: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
  tax: fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 10_000),
  adjBase: fc.option(cents),
  adjAddons: fc.option(cents),
  adjTax: fc.option(fc.integer({ min: 0, max: 500_000 })),
});

describe('invoice from estimate totals', () => {
  it('equal the estimate total to the cent over 1,000 random estimates (pure functions)', () => {
    fc.assert(
      fc.property(arbEstimate, (r) => {
        const snapshot: PricingSnapshot = {
          pricing_type: r.tiered ? 'tiered' : 'flat',
          base_price_cents: r.tiered ? null : r.base,
          tiers: { good: r.tiers[0], better: r.tiers[1], best: r.tiers[2] },
          addons: r.addons.map((p, i) => ({ id: `a${i}`, name: `Add-on ${i}`, price_cents: p })),
          tax_rate: r.tax,
        };
        const selectedAddons = snapshot.addons.filter((_, i) => r.pick[i]).map((a) => a.id);
        const adjustments = { ...(r.adjBase !== null ? { base_amount: r.adjBase } : {}), ...(r.adjAddons !== null ? { addons_amount: r.adjAddons } : {}), ...(r.adjTax !== null ? { tax_amount: r.adjTax } : {}) };
        const input = { selectedTier: r.tiered ? r.tier : null, quantity: r.quantity, selectedAddons, adjustments };
        const estimate = priceEstimate(snapshot, input);
        const lines = estimateInvoiceLines({ templateName: 'T', snapshot, ...input });
        // Through the invoices' own totals function, as create computes it.
        const totals = computeTotals({ lineItems: lines.lines, taxCents: lines.taxCents, discountCents: lines.discountCents });
        expect(totals.totalCents).toBe(estimate.totalCents);
        expect(linesTotalCents(lines)).toBe(estimate.totalCents);
        expect(lines.lines.every((l) => l.unitPriceCents >= 0)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('equal the estimate total through HTTP for a few random estimates', async () => {
    const a = await createTenant(t);
    const customer = await makeCustomer(t, a);
    const samples = fc.sample(arbEstimate, { numRuns: 6, seed: 17 });
    for (const r of samples) {
      const addons = r.addons.map((p, i) => ({ id: `a${i}`, name: `Add-on ${i}`, price: p / 100 }));
      const template = await makeTemplate(t, a, r.tiered
        ? { pricing_type: 'tiered', base_price: null, tiers: { good: r.tiers[0] / 100, better: r.tiers[1] / 100, best: r.tiers[2] / 100 }, addons, tax_rate: r.tax }
        : { pricing_type: 'flat', base_price: r.base / 100, addons, tax_rate: r.tax });
      const adjustments = { ...(r.adjBase !== null ? { base_amount: r.adjBase / 100 } : {}), ...(r.adjTax !== null ? { tax_amount: r.adjTax / 100 } : {}) };
      const est = await rest(t, a).post('/estimates', {
        customer_uuid: customer.uuid, template_uuid: template.uuid, quantity: r.quantity,
        selected_tier: r.tiered ? r.tier : undefined, selected_addons: addons.filter((_, i) => r.pick[i]).map((x) => x.id), adjustments,
      });
      expect(est.status).toBe(200);
      const job = (await rest(t, a).post(`/estimates/${est.body.data.uuid}/convert_to_job`)).body.data.job;
      const inv = await rest(t, a).post(`/jobs/${job.uuid}/invoice`);
      expect(inv.body.data.total_amount).toBe(est.body.data.total_amount);
    }
  });
});
