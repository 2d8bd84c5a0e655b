import request from 'supertest';
import { canonicalJson } from '../../../src/data/idempotency';
import { DocumentView, loadDocumentView, ViewRead } from '../../../src/modules/document/document.view';
import { pdfFile } from '../../../src/modules/document/document.service';
import { renderPdf } from '../../../src/modules/document/pdf.render';
import { systemContext } from '../../../src/data/system-context';
import { createTenant, rest, Tenant, useTestApp } from '../../helpers/app';
import { makeCustomer, makeJob, makeLocation } from '../../helpers/estimate-fixtures';

// An invoice's document view read in one statement (src/modules/document/document.read.ts) is
// the view of the ORM path (`plain`): the same fields and values, so the same ETag and the same
// PDF bytes; and the same NOT_FOUND where the ORM path refuses.
const t = useTestApp();

async function viewOf(a: Tenant, uuid: string, read: ViewRead): Promise<DocumentView | string> {
  try {
    return await loadDocumentView(systemContext(t.orm.em.fork({ clear: true }), a.companyUuid), 'invoice', uuid, read);
  } catch (e) {
    return `${(e as { code?: string }).code} ${(e as Error).message}`;
  }
}

const binary = (r: request.Test) =>
  r.buffer(true).parse((res, cb) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  });

it('an invoice view read in one statement is the ORM path view: same values, ETag and PDF bytes', async () => {
  const a = await createTenant(t, { name: 'Ζωή Plumbing' });
  const b = await createTenant(t);
  const billing = await makeCustomer(t, a, { first_name: 'Łukasz', last_name: 'Иван', company_name: 'Ζωή Holdings', email: 'l@example.com', billing_address1: '12 Elm St', billing_address2: 'Unit 4', billing_city: 'Springfield', billing_state: 'IL', billing_zip: '62701', physical_address1: '9 Oak' });
  const physical = await makeCustomer(t, a, { first_name: ' Bo ', last_name: 'Plain', physical_address1: '1 Loop Rd', physical_city: 'Peoria', physical_zip: '61602' });
  const loc = await makeLocation(t, a, { name: 'North shop', address2: 'Bay 2' });
  const lines = (n: number, rate = 8.25) => Array.from({ length: n }, (_, i) => ({ description: i === 1 ? null : `Part ${i + 1}: copper fitting ¾″`, quantity: 1 + (i % 3), unit_price: 12.5 + i, tax_rate: i === 2 ? rate + 1 : rate }));
  const invoice = async (customer: { uuid: string }, body: object) => {
    const job = await makeJob(t, a, customer.uuid);
    const res = await rest(t, a).post('/invoices', { job_uuid: job.uuid, customer_uuid: customer.uuid, due_date: '2099-01-31', ...body });
    expect(res.status).toBe(200);
    return res.body.data.uuid as string;
  };
  const paid = await invoice(billing, { line_items: lines(20), location_uuid: loc.uuid, discount_amount: 10, notes: 'Thank you' });
  for (const [date, amount, type] of [['2026-11-20', 50, 'check'], ['2026-11-18', 25.5, 'cash'], ['2026-11-20', 10, 'cash']] as const) {
    expect((await rest(t, a).post('/payments', { invoice_uuid: paid, payment_type: type, amount, payment_date: date, payment_method: type === 'check' ? 'Check #1001' : undefined })).status).toBe(200);
  }
  const removed = await rest(t, a).post('/payments', { invoice_uuid: paid, payment_type: 'cash', amount: 1, payment_date: '2026-11-19' });
  expect((await rest(t, a).delete(`/payments/${removed.body.data.uuid}`)).status).toBe(200);
  const overdue = await invoice(physical, { line_items: lines(3, 0), due_date: '2020-01-31', issue_date: '2020-01-01', status: 'Pending' });
  const draft = await invoice(physical, { line_items: [], status: 'Draft' });
  const deleted = await invoice(billing, { line_items: lines(1), status: 'Draft' });
  expect((await rest(t, a).delete(`/invoices/${deleted}`)).status).toBe(200);
  const bCustomer = await makeCustomer(t, b);
  const others = (await rest(t, b).post('/invoices', { job_uuid: (await makeJob(t, b, bCustomer.uuid)).uuid, customer_uuid: bCustomer.uuid, due_date: '2099-01-31', line_items: lines(2) })).body.data.uuid;

  const found: DocumentView[] = [];
  for (const id of [paid, paid.toUpperCase(), overdue, draft, deleted, others, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
    const lean = await viewOf(a, id, 'lean');
    const plain = await viewOf(a, id, 'plain');
    expect(lean).toEqual(plain);
    if (typeof plain === 'string') continue;
    expect(canonicalJson(lean)).toBe(canonicalJson(plain));
    expect(pdfFile(lean as DocumentView).etag).toBe(pdfFile(plain).etag);
    found.push(plain);
  }
  expect(found.length).toBe(4);
  const [full, , late] = found;
  expect(full.invoice!.payments.map((p) => p.amountCents)).toEqual([2550, 5000, 1000]);
  expect(full.location?.name).toBe('North shop');
  expect(full.adjustments).toEqual([['Discount', -1000]]);
  expect(late.status).toBe('Overdue');

  // The REST answer: the plain view's ETag and PDF bytes.
  const res = await binary(request(t.app).get(`/api/v1/invoices/${paid}/pdf`).set('Authorization', `Bearer ${a.key}`));
  expect(res.status).toBe(200);
  expect(res.headers.etag).toBe(pdfFile(full).etag);
  expect((res.body as Buffer).equals(await renderPdf(full))).toBe(true);
});

it('with custom fields shown on documents: the same view on both reads, the job\'s fields too (a deleted job\'s as well)', async () => {
  const a = await createTenant(t);
  for (const [resource, key, type, show] of [['invoice', 'po', 'text', true], ['invoice', 'rating', 'number', false], ['customer', 'gate', 'text', true], ['location', 'access', 'text', true], ['job', 'permit', 'text', true]] as const) {
    expect((await rest(t, a).post('/custom_fields', { resource, key, label: key.toUpperCase(), type, show_on_documents: show })).status).toBe(200);
  }
  const customer = await makeCustomer(t, a, { custom_fields: { gate: '4321' } });
  const loc = await makeLocation(t, a, { custom_fields: { access: 'Side door' } });
  const invoice = async (body: object, jobFields: object = { permit: 'P-1' }) => {
    const job = await makeJob(t, a, customer.uuid, { custom_fields: jobFields });
    const res = await rest(t, a).post('/invoices', { job_uuid: job.uuid, customer_uuid: customer.uuid, due_date: '2099-01-31', line_items: [{ description: 'Labour', quantity: 1, unit_price: 100 }], ...body });
    expect(res.status).toBe(200);
    return { uuid: res.body.data.uuid as string, job: job.uuid as string };
  };
  const full = await invoice({ location_uuid: loc.uuid, custom_fields: { po: 'PO-1', rating: 3 } });
  const bare = await invoice({}, {});
  const jobGone = await invoice({ custom_fields: { po: 'PO-2' } });
  expect((await rest(t, a).delete(`/jobs/${jobGone.job}`)).status).toBe(200);
  const views: DocumentView[] = [];
  for (const { uuid } of [full, bare, jobGone]) {
    const lean = await viewOf(a, uuid, 'lean');
    expect(lean).toEqual(await viewOf(a, uuid, 'plain'));
    views.push(lean as DocumentView);
  }
  const text = (f: DocumentView['fields']) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v.map((x: { label: string; text: string }) => `${x.label}: ${x.text}`)]));
  expect(text(views[0].fields)).toEqual({ document: ['PO: PO-1'], job: ['PERMIT: P-1'], customer: ['GATE: 4321'], location: ['ACCESS: Side door'] });
  expect(text(views[1].fields)).toEqual({ document: [], job: [], customer: ['GATE: 4321'], location: [] });
  expect(text(views[2].fields)).toEqual({ document: ['PO: PO-2'], job: ['PERMIT: P-1'], customer: ['GATE: 4321'], location: [] });
});
