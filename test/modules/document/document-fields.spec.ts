import request from 'supertest';
import { createTenant, gql, rest, Tenant, useTestApp } from '../../helpers/app';
import { makeCustomer, makeLocation, makeTemplate } from '../../helpers/estimate-fixtures';
import { pdfText } from '../../helpers/pdf';
import { watchStatements } from '../../helpers/statements';

// Custom fields printed on documents (docs/documents.md, "Custom fields on documents"): the fields
// whose live definition has show_on_documents, of the document, its job, its customer and its
// location, with their labels and values as documents write them, on the PDF and the customer page.

const t = useTestApp();

const binary = (r: request.Test) =>
  r.buffer(true).parse((res, cb) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  });
const getPdf = (a: Tenant, path: string, headers: Record<string, string> = {}) => binary(request(t.app).get(`/api/v1${path}`).set('Authorization', `Bearer ${a.key}`).set(headers));
const textOf = async (pdf: Buffer) => (await pdfText(pdf)).pages.join('\n');
const pathOf = (url: string) => new URL(url).pathname;

async function define(a: Tenant, body: Record<string, unknown>): Promise<string> {
  const res = await rest(t, a).post('/custom_fields', { show_on_documents: true, ...body });
  expect(res.status).toBe(200);
  return res.body.data.uuid;
}

/** Company A's definitions: shown ones of each printed resource and of every formatted type, a hidden one, a deleted one. */
async function definitions(a: Tenant) {
  const ids = {
    po: await define(a, { resource: 'invoice', key: 'po', label: 'PO number', type: 'text', position: 1 }),
    deposit: await define(a, { resource: 'invoice', key: 'deposit', label: 'Deposit held', type: 'money', position: 2 }),
    warranty: await define(a, { resource: 'invoice', key: 'warranty', label: 'Warranty until', type: 'date', position: 3 }),
    // Position 0: printed before the PO number although defined after it.
    billable: await define(a, { resource: 'invoice', key: 'billable', label: 'Billable', type: 'boolean', position: 0 }),
    colours: await define(a, { resource: 'invoice', key: 'colours', label: 'Colours', type: 'multi_select', options: ['Red', 'Green', 'Blue'], position: 4 }),
    unset: await define(a, { resource: 'invoice', key: 'unset', label: 'Never set', type: 'number', position: 5 }),
    rating: await define(a, { resource: 'invoice', key: 'rating', label: 'Internal rating', type: 'number', show_on_documents: false }),
    old: await define(a, { resource: 'invoice', key: 'old', label: 'Old field', type: 'text' }),
    gate: await define(a, { resource: 'customer', key: 'gate', label: 'Gate code', type: 'text' }),
    note: await define(a, { resource: 'customer', key: 'note', label: 'Customer note', type: 'text' }),
    access: await define(a, { resource: 'location', key: 'access', label: 'Access', type: 'select', options: ['Side door', 'Front'] }),
    permit: await define(a, { resource: 'job', key: 'permit', label: 'Permit', type: 'text' }),
    crew: await define(a, { resource: 'visit', key: 'crew', label: 'Visit crew', type: 'text' }),
    ref: await define(a, { resource: 'estimate', key: 'ref', label: 'Quote ref', type: 'text' }),
  };
  return ids;
}

/** An invoice of A with a value of each field (the deleted definition's value set before it was deleted). */
async function invoiceWithFields(a: Tenant, ids: Record<string, string>) {
  const customer = await makeCustomer(t, a, { first_name: 'Ada', last_name: 'Byron', custom_fields: { gate: '4321', note: 'Beware <script>alert(1)</script> & dog' } });
  const loc = await makeLocation(t, a, { name: 'North shop', custom_fields: { access: 'Side door' } });
  const job = (await rest(t, a).post('/jobs', { customer_uuid: customer.uuid, location_uuid: loc.uuid, title: 'Boiler', custom_fields: { permit: 'P-1' } })).body.data;
  const res = await rest(t, a).post('/invoices', {
    job_uuid: job.uuid,
    customer_uuid: customer.uuid,
    location_uuid: loc.uuid,
    due_date: '2099-01-31',
    line_items: [{ description: 'Labour', quantity: 1, unit_price: 100 }],
    custom_fields: { po: 'PO-77', deposit: 1250.5, warranty: '2027-03-01', billable: true, colours: ['Blue', 'Red'], rating: 9, old: 'gone' },
  });
  expect(res.status).toBe(200);
  expect((await rest(t, a).delete(`/custom_fields/${ids.old}`)).status).toBe(200);
  return { customer, loc, job, invoice: res.body.data };
}

const SHOWN = ['Billable: Yes', 'PO number: PO-77', 'Deposit held: $1,250.50', 'Warranty until: March 1, 2027', 'Colours: Red, Blue', 'Permit: P-1', 'Gate code: 4321', 'Access: Side door'];
const NEVER = ['Internal rating', 'Old field', 'gone', 'Never set', 'Visit crew', 'Quote ref', 'Other company'];

describe('custom fields on documents', () => {
  it("an invoice PDF prints the shown fields of the invoice, its job, customer and location, formatted, in order; never hidden, deleted or another company's", async () => {
    const a = await createTenant(t);
    const b = await createTenant(t);
    const ids = await definitions(a);
    // Another company's shown definitions of the same keys: never on A's documents.
    await define(b, { resource: 'invoice', key: 'po', label: 'Other company PO', type: 'text' });
    await define(b, { resource: 'customer', key: 'gate', label: 'Other company gate', type: 'text' });
    const { invoice } = await invoiceWithFields(a, ids);
    const res = await getPdf(a, `/invoices/${invoice.uuid}/pdf`);
    expect(res.status).toBe(200);
    const text = await textOf(res.body);
    for (const s of [...SHOWN, 'Customer note: Beware <script>alert(1)</script> & dog']) expect(text).toContain(s);
    for (const s of NEVER) expect(text).not.toContain(s);
    // In the definitions' position order within the header block.
    const at = (s: string) => text.indexOf(s);
    expect(at('Billable: Yes')).toBeLessThan(at('PO number: PO-77'));
    expect(at('PO number: PO-77')).toBeLessThan(at('Deposit held'));
    expect(at('Warranty until')).toBeLessThan(at('Colours'));
  });

  it('an estimate PDF prints its own and its customer\'s shown fields', async () => {
    const a = await createTenant(t);
    await definitions(a);
    const customer = await makeCustomer(t, a, { custom_fields: { gate: '99' } });
    const template = await makeTemplate(t, a);
    const est = (await rest(t, a).post('/estimates', { customer_uuid: customer.uuid, template_uuid: template.uuid, custom_fields: { ref: 'Q-5' } })).body.data;
    const text = await textOf((await getPdf(a, `/estimates/${est.uuid}/pdf`)).body);
    for (const s of ['Quote ref: Q-5', 'Gate code: 99']) expect(text).toContain(s);
    for (const s of ['PO number', 'Permit', 'Access']) expect(text).not.toContain(s);
  });

  it('turning show_on_documents off (GraphQL), a new label or a new value changes the PDF and its ETag (REST and the signed link)', async () => {
    const a = await createTenant(t);
    const ids = await definitions(a);
    const { invoice } = await invoiceWithFields(a, ids);
    const path = `/invoices/${invoice.uuid}/pdf`;
    const first = await getPdf(a, path);
    expect((await getPdf(a, path, { 'If-None-Match': first.headers.etag })).status).toBe(304);

    const off = await gql(t, a, `mutation($u: UUID!) { updateCustomFieldDefinition(uuid: $u, input: { showOnDocuments: false }) { showOnDocuments } }`, { u: ids.po });
    expect(off.data.updateCustomFieldDefinition.showOnDocuments).toBe(false);
    const hidden = await getPdf(a, path, { 'If-None-Match': first.headers.etag });
    expect(hidden.status).toBe(200);
    expect(hidden.headers.etag).not.toBe(first.headers.etag);
    expect(await textOf(hidden.body)).not.toContain('PO number');
    // The signed link of GraphQL's pdfUrl serves the same PDF.
    const link = new URL((await gql(t, a, `query($u: UUID!) { invoice(uuid: $u) { pdfUrl } }`, { u: invoice.uuid })).data.invoice.pdfUrl);
    const signed = await binary(request(t.app).get(link.pathname + link.search));
    expect(signed.headers.etag).toBe(hidden.headers.etag);
    expect(Buffer.compare(signed.body, hidden.body)).toBe(0);

    expect((await rest(t, a).put(`/custom_fields/${ids.gate}`, { label: 'Gate PIN' })).status).toBe(200);
    const relabelled = await getPdf(a, path, { 'If-None-Match': hidden.headers.etag });
    expect(relabelled.status).toBe(200);
    expect(await textOf(relabelled.body)).toContain('Gate PIN: 4321');

    expect((await rest(t, a).put(`/locations/${invoice.location_uuid}`, { custom_fields: { access: 'Front' } })).status).toBe(200);
    const revalued = await getPdf(a, path, { 'If-None-Match': relabelled.headers.etag });
    expect(revalued.status).toBe(200);
    expect(await textOf(revalued.body)).toContain('Access: Front');

    // Shown again: the first PDF's fields, and its ETag, again (the view names the bytes).
    await gql(t, a, `mutation($u: UUID!) { updateCustomFieldDefinition(uuid: $u, input: { showOnDocuments: true, label: "PO number" }) { uuid } }`, { u: ids.po });
    await rest(t, a).put(`/custom_fields/${ids.gate}`, { label: 'Gate code' });
    await rest(t, a).put(`/locations/${invoice.location_uuid}`, { custom_fields: { access: 'Side door' } });
    const again = await getPdf(a, path);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(Buffer.compare(again.body, first.body)).toBe(0);
  });

  it('the customer page shows the same fields, HTML-escaped', async () => {
    const a = await createTenant(t);
    const ids = await definitions(a);
    await define(a, { resource: 'invoice', key: 'tricky', label: 'Label <b>bold</b>', type: 'text', position: 6 });
    const { invoice } = await invoiceWithFields(a, ids);
    expect((await rest(t, a).put(`/invoices/${invoice.uuid}`, { custom_fields: { tricky: '<script>alert("x")</script>' } })).status).toBe(200);
    const url = (await rest(t, a).post(`/invoices/${invoice.uuid}/share_link`)).body.data.url as string;
    const page = await request(t.app).get(pathOf(url));
    expect(page.status).toBe(200);
    const pairs = [...page.text.matchAll(/<dt>(.*?)<\/dt><dd>(.*?)<\/dd>/g)].map((m) => `${m[1]}: ${m[2]}`);
    expect(pairs).toEqual([
      'Billable: Yes',
      'PO number: PO-77',
      'Deposit held: $1,250.50',
      'Warranty until: March 1, 2027',
      'Colours: Red, Blue',
      'Label &lt;b&gt;bold&lt;/b&gt;: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;',
      'Permit: P-1',
      'Gate code: 4321',
      'Customer note: Beware &lt;script&gt;alert(1)&lt;/script&gt; &amp; dog',
      'Access: Side door',
    ]);
    expect(page.text).not.toMatch(/<script|<b>/);
    for (const s of NEVER) expect(page.text).not.toContain(s);
    // The page's PDF prints them too (a long line wraps in the header's column).
    const pdf = await binary(request(t.app).get(`${pathOf(url)}/pdf`));
    expect((await textOf(pdf.body)).replace(/\n/g, '')).toContain('Label <b>bold</b>: <script>alert("x")</script>');

    // An estimate's page: its own field and its customer's.
    const customer = await makeCustomer(t, a, { custom_fields: { gate: '77' } });
    const est = (await rest(t, a).post('/estimates', { customer_uuid: customer.uuid, template_uuid: (await makeTemplate(t, a)).uuid, custom_fields: { ref: 'Q-<1>' } })).body.data;
    const estPage = (await request(t.app).get(pathOf((await rest(t, a).post(`/estimates/${est.uuid}/share_link`)).body.data.url))).text;
    expect(estPage).toContain('<dt>Quote ref</dt><dd>Q-&lt;1&gt;</dd>');
    expect(estPage).toContain('<dt>Gate code</dt><dd>77</dd>');
  });

  it('an invoice PDF of a company that prints no custom field reads no definition; one that prints some reads them in one statement', async () => {
    const none = await createTenant(t);
    const hiddenOnly = await createTenant(t);
    const shows = await createTenant(t);
    await define(hiddenOnly, { resource: 'customer', key: 'gate', label: 'Gate code', type: 'text', show_on_documents: false });
    // A shown field of visits only: visits are printed on no document.
    await define(hiddenOnly, { resource: 'visit', key: 'crew', label: 'Crew', type: 'text' });
    await define(shows, { resource: 'customer', key: 'gate', label: 'Gate code', type: 'text' });
    const statementsOf = async (a: Tenant) => {
      const customer = await makeCustomer(t, a);
      const job = (await rest(t, a).post('/jobs', { customer_uuid: customer.uuid, title: 'Boiler' })).body.data;
      const inv = (await rest(t, a).post('/invoices', { job_uuid: job.uuid, customer_uuid: customer.uuid, due_date: '2099-01-31', line_items: [{ description: 'Labour', quantity: 1, unit_price: 100 }] })).body.data;
      await getPdf(a, `/invoices/${inv.uuid}/pdf`);
      const watch = watchStatements();
      try {
        expect((await getPdf(a, `/invoices/${inv.uuid}/pdf`)).status).toBe(200);
        return [...watch.seen];
      } finally {
        watch.stop();
      }
    };
    const plain = await statementsOf(none);
    expect(plain.filter((s) => /custom_field_definitions/.test(s) && !/from "invoices"/.test(s))).toEqual([]);
    expect(await statementsOf(hiddenOnly)).toEqual(plain);
    const printed = await statementsOf(shows);
    expect(printed.length).toBe(plain.length + 1);
    expect(printed.filter((s) => !plain.includes(s))).toEqual([expect.stringMatching(/from "custom_field_definitions"/)]);
  });
});
