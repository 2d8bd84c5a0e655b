import request from 'supertest';
import { createTenant, gql, rest, Tenant, useTestApp } from '../../helpers/app';
import { makeCustomer, makeTemplate, tiered } from '../../helpers/estimate-fixtures';

const t = useTestApp();

async function tieredEstimate(a: Tenant) {
  const customer = await makeCustomer(t, a, { first_name: 'Ζωή', last_name: 'Иван' });
  const template = await makeTemplate(t, a, { ...tiered, tax_rate: 8.25, addons: [{ id: 'filter', name: 'Filter', price: 20 }] });
  const res = await rest(t, a).post('/estimates', { customer_uuid: customer.uuid, template_uuid: template.uuid, selected_tier: 'good', selected_addons: ['filter'] });
  return res.body.data;
}

const pathOf = (url: string) => new URL(url).pathname;
const accept = (path: string, form: Record<string, string>) => request(t.app).post(`${path}/accept`).type('form').send(form);

describe('share links (REST)', () => {
  it('creates a link whose page shows the estimate; wrong token 404; revoked or expired 410', async () => {
    const a = await createTenant(t);
    const est = await tieredEstimate(a);
    const res = await rest(t, a).post(`/estimates/${est.uuid}/share_link`);
    expect(res.status).toBe(200);
    const { url, expires_at } = res.body.data;
    expect(url).toMatch(/\/p\/[A-Za-z0-9_-]{43}$/);
    expect(Math.abs(new Date(expires_at).getTime() - Date.now() - 30 * 86400_000)).toBeLessThan(60_000);
    const page = await request(t.app).get(pathOf(url));
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'; style-src 'nonce-/);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    for (const s of [est.estimate_number, 'Ζωή Иван', 'Good: $117.99 total', 'Better: $161.83 total', 'Best: $237.07 total', 'name="signer_name"', 'Download PDF']) expect(page.text).toContain(s);
    expect(page.text).not.toMatch(/<script|https?:\/\//);
    const pdf = await request(t.app).get(`${pathOf(url)}/pdf`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    // A token one character off, a malformed one: 404, nothing learnt.
    const wrong = pathOf(url).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await request(t.app).get(wrong)).status).toBe(404);
    expect((await request(t.app).get('/p/short')).status).toBe(404);
    expect((await accept(wrong, { signer_name: 'X', tier: 'good' })).status).toBe(404);
    // Revoked: 410 for the page, its PDF and its forms.
    expect((await rest(t, a).delete(`/estimates/${est.uuid}/share_link`)).body.data.message).toBe('Share links revoked');
    const gone = await request(t.app).get(pathOf(url));
    expect(gone.status).toBe(410);
    expect(gone.text).toContain('expired');
    expect((await request(t.app).get(`${pathOf(url)}/pdf`)).status).toBe(410);
    expect((await accept(pathOf(url), { signer_name: 'X', tier: 'good' })).status).toBe(410);
    // Expired.
    const short = (await rest(t, a).post(`/estimates/${est.uuid}/share_link`, { expires_in_days: 1 })).body.data;
    await t.orm.em.getConnection().execute(`update share_links set expires_at = now() - interval '1 second' where expires_at < now() + interval '2 days'`);
    expect((await request(t.app).get(pathOf(short.url))).status).toBe(410);
    for (const days of [0, 91, 1.5]) expect((await rest(t, a).post(`/estimates/${est.uuid}/share_link`, { expires_in_days: days })).body.error.details[0].field).toBe('expires_in_days');
  });

  it('accepting sets Accepted, the chosen tier priced by the server, and acceptance; a second answer is 409', async () => {
    const a = await createTenant(t);
    const est = await tieredEstimate(a);
    const path = pathOf((await rest(t, a).post(`/estimates/${est.uuid}/share_link`)).body.data.url);
    const noName = await accept(path, { signer_name: '  ', tier: 'better' });
    expect(noName.status).toBe(400);
    expect(noName.text).toContain('signer_name is required');
    expect((await accept(path, { signer_name: 'Ζωή Иван', tier: 'platinum' })).status).toBe(400);
    const ok = await accept(path, { signer_name: 'Ζωή Иван', tier: 'better' }).set('User-Agent', 'test-agent');
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe(`${path}?done=accepted`);
    const got = (await rest(t, a).get(`/estimates/${est.uuid}`)).body.data;
    expect(got).toMatchObject({ status: 'Accepted', selected_tier: 'better', base_amount: 129.5, total_amount: 161.83 });
    expect(got.responded_at).toEqual(expect.any(String));
    expect(got.acceptance).toEqual({ signer_name: 'Ζωή Иван', selected_tier: 'better', ip: expect.any(String), user_agent: 'test-agent', accepted_at: got.responded_at });
    const page = await request(t.app).get(`${path}?done=accepted`);
    expect(page.text).toContain('Accepted by Ζωή Иван');
    expect(page.text).not.toContain('name="signer_name"');
    expect((await accept(path, { signer_name: 'Again', tier: 'best' })).status).toBe(409);
    expect((await request(t.app).post(`${path}/decline`).type('form').send({ reason: 'no' })).status).toBe(409);
    // Read-only: a PUT with another acceptance is refused; GET → PUT with the same is fine.
    expect((await rest(t, a).put(`/estimates/${est.uuid}`, { acceptance: { signer_name: 'Mallory' } })).status).toBe(400);
    expect((await rest(t, a).put(`/estimates/${est.uuid}`, { acceptance: got.acceptance })).status).toBe(200);
    const g = await gql(t, a, `query($u: UUID!) { estimate(uuid: $u) { acceptance status } }`, { u: est.uuid });
    expect(g.data.estimate).toEqual({ acceptance: got.acceptance, status: 'ACCEPTED' });
  });

  it('two accepts at once: one succeeds, the other is 409', async () => {
    const a = await createTenant(t);
    const est = await tieredEstimate(a);
    const path = pathOf((await rest(t, a).post(`/estimates/${est.uuid}/share_link`)).body.data.url);
    const results = await Promise.all([accept(path, { signer_name: 'One', tier: 'good' }), accept(path, { signer_name: 'Two', tier: 'best' })]);
    expect(results.map((r) => r.status).sort()).toEqual([303, 409]);
    const got = (await rest(t, a).get(`/estimates/${est.uuid}`)).body.data;
    const winner = results[0].status === 303 ? { name: 'One', tier: 'good' } : { name: 'Two', tier: 'best' };
    expect(got.acceptance).toMatchObject({ signer_name: winner.name, selected_tier: winner.tier });
  });

  it('declining sets Declined with the reason; invoice links show the balance and take no answer', async () => {
    const a = await createTenant(t);
    const est = await tieredEstimate(a);
    const path = pathOf((await rest(t, a).post(`/estimates/${est.uuid}/share_link`)).body.data.url);
    const res = await request(t.app).post(`${path}/decline`).type('form').send({ reason: 'Too expensive' });
    expect(res.status).toBe(303);
    expect((await rest(t, a).get(`/estimates/${est.uuid}`)).body.data).toMatchObject({ status: 'Declined', response_notes: 'Too expensive', acceptance: null });
    const job = (await rest(t, a).post('/jobs', { customer_uuid: est.customer_uuid, title: 'Fix', estimated_amount: 1234.5 })).body.data;
    const inv = (await rest(t, a).post(`/jobs/${job.uuid}/invoice`)).body.data;
    const link = pathOf((await rest(t, a).post(`/invoices/${inv.uuid}/share_link`, { expires_in_days: 90 })).body.data.url);
    const page = await request(t.app).get(link);
    expect(page.text).toContain(inv.invoice_number);
    expect(page.text).toContain('Balance due');
    expect(page.text).toContain('$1,234.50');
    expect(page.text).not.toContain('Accept estimate');
    expect((await accept(link, { signer_name: 'X' })).status).toBe(404);
  });

  it('tenancy and GraphQL: another company cannot make or revoke links; mutations on both surfaces', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other' });
    const est = await tieredEstimate(a);
    expect((await rest(t, b).post(`/estimates/${est.uuid}/share_link`)).status).toBe(404);
    expect((await rest(t, b).delete(`/estimates/${est.uuid}/share_link`)).status).toBe(404);
    const made = await gql(t, a, `mutation($u: UUID!) { createEstimateShareLink(uuid: $u, input: { expiresInDays: 7 }) { url expiresAt } }`, { u: est.uuid });
    const { url } = made.data.createEstimateShareLink;
    expect((await request(t.app).get(pathOf(url))).status).toBe(200);
    const foreign = await gql(t, b, `mutation($u: UUID!) { revokeEstimateShareLink(uuid: $u) { message } }`, { u: est.uuid });
    expect(foreign.errors![0].extensions.code).toBe('NOT_FOUND');
    const bad = await gql(t, a, `mutation($u: UUID!) { createInvoiceShareLink(uuid: $u) { url } }`, { u: est.uuid });
    expect(bad.errors![0].extensions.code).toBe('NOT_FOUND');
    expect((await gql(t, a, `mutation($u: UUID!) { revokeEstimateShareLink(uuid: $u) { message } }`, { u: est.uuid })).data.revokeEstimateShareLink.message).toBe('Share links revoked');
    expect((await request(t.app).get(pathOf(url))).status).toBe(410);
  });
});
