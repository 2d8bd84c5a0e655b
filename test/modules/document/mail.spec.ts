import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { simpleParser } from 'mailparser';
import { createTenant, gql, rest, Tenant, useTestApp } from '../../helpers/app';
import { makeTemplate } from '../../helpers/estimate-fixtures';
import { pdfText } from '../../helpers/pdf';

// Without SMTP_URL every message is an .eml file under DATA_DIR/outbox/.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-mail-'));
const outbox = path.join(dataDir, 'outbox');
const t = useTestApp({ DATA_DIR: dataDir });
const emls = () => (fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith('.eml')) : []);

beforeEach(() => fs.rmSync(outbox, { recursive: true, force: true }));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function draftInvoice(a: Tenant, email: string | null = 'ada@example.com') {
  const customer = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'Lovelace', email })).body.data;
  const job = (await rest(t, a).post('/jobs', { customer_uuid: customer.uuid, title: 'Leak', estimated_amount: 99.5 })).body.data;
  const inv = await rest(t, a).post('/invoices', { job_uuid: job.uuid, customer_uuid: customer.uuid, due_date: '2099-01-01', status: 'Draft', line_items: [{ description: 'Seal pipe', unit_price: 99.5 }] });
  return { customer, job, inv: inv.body.data };
}

describe('sending documents (outbox)', () => {
  it('writes one .eml with the PDF and the share link; a Draft invoice becomes Pending; history', async () => {
    const a = await createTenant(t);
    const { inv, job } = await draftInvoice(a);
    expect(inv.status).toBe('Draft');
    const res = await rest(t, a).post(`/invoices/${inv.uuid}/send`, { cc: ['boss@example.com'], message: 'Hi Ada, here it is.' });
    expect(res.body.error).toBeUndefined();
    expect(res.body.data).toEqual({ uuid: expect.any(String), to: 'ada@example.com', cc: ['boss@example.com'], subject: `Invoice ${inv.invoice_number} from Acme Plumbing`, status: 'sent', sent_at: expect.any(String), error: null });
    expect(emls()).toHaveLength(1);
    const mail = await simpleParser(fs.readFileSync(path.join(outbox, emls()[0])));
    expect(mail.to).toMatchObject({ text: 'ada@example.com' });
    expect(mail.cc).toMatchObject({ text: 'boss@example.com' });
    expect(mail.subject).toBe(`Invoice ${inv.invoice_number} from Acme Plumbing`);
    expect(mail.text).toContain('Hi Ada, here it is.');
    const link = /https?:\/\/\S+\/p\/[A-Za-z0-9_-]{43}/.exec(mail.text!)![0];
    expect((await request(t.app).get(new URL(link).pathname)).text).toContain(inv.invoice_number);
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ filename: `${inv.invoice_number}.pdf`, contentType: 'application/pdf' });
    const text = (await pdfText(mail.attachments[0].content)).pages.join('\n');
    expect(text).toContain('Status: Pending');
    expect(text).toContain('$99.50');
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data.status).toBe('Pending');
    expect((await rest(t, a).get(`/jobs/${job.uuid}`)).body.data.status).toBe('Invoiced');
    const history = await rest(t, a).get(`/invoices/${inv.uuid}/emails`);
    expect(history.body.data).toEqual({ emails: [res.body.data], pagination: { page: 1, limit: 50, total: 1, total_pages: 1 } });
  });

  it('Idempotency-Key sends once; another key sends again', async () => {
    const a = await createTenant(t);
    const { inv } = await draftInvoice(a);
    const send = (key: string) => request(t.app).post(`/api/v1/invoices/${inv.uuid}/send`).set('Authorization', `Bearer ${a.key}`).set('Idempotency-Key', key).send({});
    const one = await send('mail-1');
    const two = await send('mail-1');
    expect(two.body).toEqual(one.body);
    expect(two.headers['idempotent-replayed']).toBe('true');
    expect(emls()).toHaveLength(1);
    await send('mail-2');
    expect(emls()).toHaveLength(2);
    expect((await rest(t, a).get(`/invoices/${inv.uuid}/emails`)).body.data.pagination.total).toBe(2);
  });

  it('no address: 400; foreign or unknown documents: 404; estimates and GraphQL', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other' });
    const { inv, customer } = await draftInvoice(a, null);
    const none = await rest(t, a).post(`/invoices/${inv.uuid}/send`);
    expect(none.status).toBe(400);
    expect(none.body.error.details[0].field).toBe('to');
    expect((await rest(t, a).post(`/invoices/${inv.uuid}/send`, { to: 'not-an-email' })).body.error.details[0].field).toBe('to');
    expect(emls()).toHaveLength(0);
    expect((await rest(t, b).post(`/invoices/${inv.uuid}/send`, { to: 'x@example.com' })).status).toBe(404);
    expect((await rest(t, b).get(`/invoices/${inv.uuid}/emails`)).status).toBe(404);
    const template = await makeTemplate(t, a);
    const est = (await rest(t, a).post('/estimates', { customer_uuid: customer.uuid, template_uuid: template.uuid })).body.data;
    const h = { 'Idempotency-Key': 'g-mail' };
    const m = `mutation($u: UUID!) { sendEstimate(uuid: $u, input: { to: "ops@example.com", subject: "Your quote" }) { to subject status error } }`;
    const sent = await gql(t, a, m, { u: est.uuid }, h);
    expect(sent.data.sendEstimate).toEqual({ to: 'ops@example.com', subject: 'Your quote', status: 'sent', error: null });
    expect(await gql(t, a, m, { u: est.uuid }, h)).toEqual(sent);
    expect(emls()).toHaveLength(1);
    const mail = await simpleParser(fs.readFileSync(path.join(outbox, emls()[0])));
    expect(mail.text).toContain('accept or decline');
    expect(mail.attachments[0].filename).toBe(`${est.estimate_number}.pdf`);
    const q = await gql(t, a, `query($u: UUID!) { estimate(uuid: $u) { emails { to status } } }`, { u: est.uuid });
    expect(q.data.estimate.emails).toEqual([{ to: 'ops@example.com', status: 'sent' }]);
    const noAddr = await gql(t, a, `mutation($u: UUID!) { sendInvoice(uuid: $u) { status } }`, { u: inv.uuid });
    expect(noAddr.errors![0].extensions.details![0].field).toBe('to');
  });
});
