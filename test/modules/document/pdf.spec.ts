import request from 'supertest';
import { createTenant, gql, rest, Tenant, useTestApp } from '../../helpers/app';
import { makeLocation, makeTemplate } from '../../helpers/estimate-fixtures';
import { makeJob } from '../../helpers/billing';
import { pdfText } from '../../helpers/pdf';
import { RenderLimit } from '../../../src/modules/document/pdf.render';
import { formatMoney } from '../../../src/modules/document/pdf.format';

const t = useTestApp();

const binary = (r: request.Test) =>
  r.buffer(true).parse((res, cb) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  });
const getPdf = (a: Tenant, path: string, headers: Record<string, string> = {}) => binary(request(t.app).get(`/api/v1${path}`).set('Authorization', `Bearer ${a.key}`).set(headers));

async function billedInvoice(a: Tenant) {
  const customer = (await rest(t, a).post('/customers', { first_name: 'Łukasz', last_name: 'Иван', company_name: 'Ζωή Holdings', billing_address1: '12 Elm St', billing_city: 'Springfield', billing_state: 'IL', billing_zip: '62701' })).body.data;
  const loc = await makeLocation(t, a, { name: 'North shop' });
  const template = await makeTemplate(t, a, { base_price: 1234.5 });
  const est = (await rest(t, a).post('/estimates', { customer_uuid: customer.uuid, template_uuid: template.uuid, location_uuid: loc.uuid, selected_addons: ['haul', 'permit'] })).body.data;
  const job = (await rest(t, a).post(`/estimates/${est.uuid}/convert_to_job`)).body.data.job;
  const inv = (await rest(t, a).post(`/jobs/${job.uuid}/invoice`, { due_date: '2099-02-01' })).body.data;
  const pay = await rest(t, a).post('/payments', { invoice_uuid: inv.uuid, payment_type: 'check', amount: 500, payment_date: '2026-11-20', payment_method: 'Check #1001' });
  expect(pay.status).toBe(200);
  return { customer, est, inv: (await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data };
}

describe('PDFs', () => {
  it('an invoice PDF holds its content as text, in Latin, Greek and Cyrillic', async () => {
    const a = await createTenant(t, { name: 'Ζωή Plumbing' });
    const { inv } = await billedInvoice(a);
    const res = await getPdf(a, `/invoices/${inv.uuid}/pdf`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`inline; filename="${inv.invoice_number}.pdf"`);
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    const text = (await pdfText(res.body)).pages.join('\n');
    for (const s of [
      'Ζωή Plumbing', 'office@acme.example', inv.invoice_number, 'INVOICE', 'Łukasz Иван', 'Ζωή Holdings', '12 Elm St', 'North shop', '1 Main St',
      'Water heater install', 'Haul away', 'Permit', '$1,234.50', '$75.00', '$49.99', 'Subtotal', '$1,359.49', 'Tax (8.25%)', formatMoney(Math.round(inv.tax_amount * 100)),
      'Total', formatMoney(Math.round(inv.total_amount * 100)), 'Paid', '$500.00', 'Balance due', formatMoney(Math.round(inv.balance_amount * 100)), 'Status: Pending',
      'Check #1001', 'Issue date', 'Due date: February 1, 2099', 'Unit price',
    ]) expect(text).toContain(s);
  });

  it('same record, same bytes; ETag and 304; a change changes both', async () => {
    const a = await createTenant(t);
    const { inv } = await billedInvoice(a);
    const one = await getPdf(a, `/invoices/${inv.uuid}/pdf`);
    const two = await getPdf(a, `/invoices/${inv.uuid}/pdf`);
    expect(Buffer.compare(one.body, two.body)).toBe(0);
    expect(two.headers.etag).toBe(one.headers.etag);
    const info = (await pdfText(one.body)).info;
    expect(info.Title).toBe(`Invoice ${inv.invoice_number}`);
    const cached = await getPdf(a, `/invoices/${inv.uuid}/pdf`, { 'If-None-Match': one.headers.etag });
    expect(cached.status).toBe(304);
    await rest(t, a).put(`/invoices/${inv.uuid}`, { notes: 'Thank you!' });
    const changed = await getPdf(a, `/invoices/${inv.uuid}/pdf`, { 'If-None-Match': one.headers.etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(one.headers.etag);
    expect((await pdfText(changed.body)).pages.join('\n')).toContain('Thank you!');
  });

  it('an estimate PDF: number, dates, lines, adjustments, tax and total', async () => {
    const a = await createTenant(t);
    const customer = (await rest(t, a).post('/customers', { first_name: 'Ζωή', last_name: 'Łukasz' })).body.data;
    const template = await makeTemplate(t, a);
    const est = (await rest(t, a).post('/estimates', { customer_uuid: customer.uuid, template_uuid: template.uuid, quantity: 2, selected_addons: ['haul'], adjustments: { base_amount: 1900 }, expires_at: '2099-03-01' })).body.data;
    const res = await getPdf(a, `/estimates/${est.uuid}/pdf`);
    expect(res.headers['content-disposition']).toBe('inline; filename="EST-0001.pdf"');
    const text = (await pdfText(res.body)).pages.join('\n');
    for (const s of ['ESTIMATE', 'EST-0001', 'Ζωή Łukasz', 'Valid until: March 1, 2099', 'Water heater install', '$1,000.00', '$2,000.00', '$75.00', 'Subtotal', '$2,075.00', 'Adjustments', '-$100.00', 'Tax (8.25%)', formatMoney(Math.round(est.tax_amount * 100)), formatMoney(Math.round(est.total_amount * 100))]) {
      expect(text).toContain(s);
    }
  });

  it('an invoice whose lines carry different rates: one tax line per non-zero rate, adding up to its tax to the cent (PDF and customer page)', async () => {
    const a = await createTenant(t);
    const line_items = [
      { description: 'Labour', quantity: 1, unit_price: 1000, tax_rate: 10 },
      // 10% of 5¢ is 0.5¢: each line's tax rounds to 1¢, so the 10% group's tax is $100.02; rounded
      // once on the group's $1,000.10 it would be $100.01.
      { description: 'Washer a', quantity: 1, unit_price: 0.05, tax_rate: 10 },
      { description: 'Washer b', quantity: 1, unit_price: 0.05, tax_rate: 10 },
      { description: 'Parts', quantity: 1, unit_price: 3.33, tax_rate: 8.25 }, // 27.4725¢ → 27¢
      { description: 'Disposal', quantity: 1, unit_price: 20, tax_rate: 0 },
    ];
    const job = await makeJob(t, a);
    const inv = (await rest(t, a).post('/invoices', { job_uuid: job.uuid, customer_uuid: job.customer_uuid, due_date: '2099-01-31', line_items })).body.data;
    expect(inv.tax_amount).toBe(100.29);
    const text = (await pdfText((await getPdf(a, `/invoices/${inv.uuid}/pdf`)).body)).pages.join('\n');
    const shown = [...text.matchAll(/Tax (\S+)% on (\$[\d,.]+)\s*(\$[\d,.]+)/g)].map((m) => [m[1], m[2], m[3]]);
    expect(shown).toEqual([
      ['8.25', '$3.33', '$0.27'],
      ['10', '$1,000.10', '$100.02'],
    ]);
    const cents = (money: string) => Math.round(Number(money.replace(/[$,]/g, '')) * 100);
    expect(shown.reduce((sum, [, , tax]) => sum + cents(tax), 0)).toBe(Math.round(inv.tax_amount * 100));
    expect(text).not.toMatch(/Tax \(|Tax 0%/);
    // The customer page shows the same lines.
    const url = (await rest(t, a).post(`/invoices/${inv.uuid}/share_link`)).body.data.url as string;
    const page = (await request(t.app).get(new URL(url).pathname)).text;
    expect(page).toContain('Tax 8.25% on $3.33');
    expect(page).toContain('Tax 10% on $1,000.10');
  });

  it('a sent tax_amount over lines of different rates: one line, Tax, with the invoice\'s tax', async () => {
    const a = await createTenant(t);
    const line_items = [
      { description: 'Labour', quantity: 1, unit_price: 100, tax_rate: 10 },
      { description: 'Parts', quantity: 1, unit_price: 100, tax_rate: 5 },
    ];
    const job = await makeJob(t, a);
    const inv = (await rest(t, a).post('/invoices', { job_uuid: job.uuid, customer_uuid: job.customer_uuid, due_date: '2099-01-31', line_items, tax_amount: 12.34 })).body.data;
    const text = (await pdfText((await getPdf(a, `/invoices/${inv.uuid}/pdf`)).body)).pages.join('\n');
    expect(text).not.toMatch(/Tax \S+% on/);
    expect(text).toMatch(/Tax\s*\$12\.34/);
  });

  it('a 500-line invoice renders with the table header on every page', async () => {
    const a = await createTenant(t);
    const customer = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'Lovelace' })).body.data;
    const job = (await rest(t, a).post('/jobs', { customer_uuid: customer.uuid, title: 'Big job' })).body.data;
    const lines = Array.from({ length: 500 }, (_, i) => ({ description: `Part ${i + 1}`, quantity: 1, unit_price: (100 + i) / 100 }));
    const inv = await rest(t, a).post('/invoices', { job_uuid: job.uuid, customer_uuid: customer.uuid, due_date: '2099-01-01', line_items: lines });
    expect(inv.body.error).toBeUndefined();
    const res = await getPdf(a, `/invoices/${inv.body.data.uuid}/pdf`);
    const { pages } = await pdfText(res.body);
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages.slice(0, -1)) expect(page).toContain('Unit price');
    const all = pages.join('\n');
    for (let i = 1; i <= 500; i++) expect(all).toContain(`Part ${i}`);
  });

  it('deleted or foreign documents: 404; GraphQL pdfUrl serves the PDF without a key for one hour', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other' });
    const { inv, est } = await billedInvoice(a);
    expect((await getPdf(b, `/invoices/${inv.uuid}/pdf`)).status).toBe(404);
    expect((await getPdf(b, `/estimates/${est.uuid}/pdf`)).status).toBe(404);
    expect((await getPdf(a, `/invoices/not-a-uuid/pdf`)).status).toBe(404);
    const q = await gql(t, a, `query($u: UUID!, $e: UUID!) { invoice(uuid: $u) { pdfUrl } estimate(uuid: $e) { pdfUrl } }`, { u: inv.uuid, e: est.uuid });
    const url = new URL(q.data.invoice.pdfUrl);
    expect(url.pathname).toBe(`/api/v1/document-files/invoices/${a.companyUuid}/${inv.uuid}.pdf`);
    expect(Number(url.searchParams.get('expires')) - Date.now() / 1000).toBeGreaterThan(3500);
    const open = await binary(request(t.app).get(url.pathname + url.search));
    expect(open.status).toBe(200);
    expect(open.headers['content-type']).toBe('application/pdf');
    expect(Buffer.compare(open.body, (await getPdf(a, `/invoices/${inv.uuid}/pdf`)).body)).toBe(0);
    const estUrl = new URL(q.data.estimate.pdfUrl);
    expect((await request(t.app).get(estUrl.pathname + estUrl.search)).status).toBe(200);
    const tampered = url.search.replace(/sig=./, (m) => (m.endsWith('A') ? 'sig=B' : 'sig=A'));
    expect((await request(t.app).get(url.pathname + tampered)).status).toBe(404);
    const other = url.pathname.replace(a.companyUuid, b.companyUuid);
    expect((await request(t.app).get(other + url.search)).status).toBe(404);
    await rest(t, a).delete(`/estimates/${est.uuid}`);
    expect((await getPdf(a, `/estimates/${est.uuid}/pdf`)).status).toBe(404);
    expect((await request(t.app).get(estUrl.pathname + estUrl.search)).status).toBe(404);
  });
});

describe('render limit', () => {
  it('runs `concurrency` at once, queues `queue` more, refuses the rest with SERVICE_UNAVAILABLE', async () => {
    const limit = new RenderLimit(1, 1);
    let release!: () => void;
    const first = limit.run(() => new Promise<string>((r) => (release = () => r('first'))));
    const order: string[] = [];
    const second = limit.run(async () => {
      order.push('second');
      return 'second';
    });
    await expect(limit.run(async () => 'third')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(order).toEqual([]);
    release();
    expect(await first).toBe('first');
    expect(await second).toBe('second');
    expect(await limit.run(async () => 'again')).toBe('again');
  });
});
