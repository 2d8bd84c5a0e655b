import request from 'supertest';
import { operationId } from '../../src/rest/openapi-operations';
import type { RouteDef } from '../../src/rest/route';
import { checkRecorded, mismatchOf } from '../helpers/openapi-check';
import { createTenant, rest, useTestApp } from '../helpers/app';

const t = useTestApp();
const doc = async () => (await request(t.app).get('/api/v1/openapi.json')).body;
const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const uuid = '0b7c1f9e-2a47-4b41-9d8e-2f0f7a0c9a11';

describe('the response check of the test helper', () => {
  it('finds an undocumented status, a body that does not match, a missing required header and an undeclared one', () => {
    const ok = { method: 'GET', path: `/api/v1/customers/${uuid}`, status: 404, headers: { 'x-request-id': 'r' }, body: json({ success: false, data: null, error: { code: 'NOT_FOUND', message: 'Customer not found' } }) };
    expect(mismatchOf(ok)).toEqual([]);
    expect(mismatchOf({ ...ok, status: 418 })).toEqual([expect.stringContaining('status 418 is not documented')]);
    expect(mismatchOf({ ...ok, body: json({ success: false, data: null, error: { code: 'VALIDATION_ERROR', message: 'x' } }) })).toEqual([expect.stringContaining('does not match')]);
    expect(mismatchOf({ ...ok, headers: {} })).toEqual([expect.stringContaining('x-request-id is required')]);
    expect(mismatchOf({ ...ok, headers: { 'x-request-id': 'r', 'idempotent-replayed': 'true' } })).toEqual([expect.stringContaining('idempotent-replayed is sent but not documented')]);
    const okCustomer = { ...ok, status: 200, headers: { 'x-request-id': 'r', etag: '"x"' }, body: json({ success: true, data: { uuid, extra: 1 } }) };
    expect(mismatchOf(okCustomer)[0]).toContain('does not match');
    // Paths and methods the document does not list have nothing to be checked against.
    expect(mismatchOf({ ...ok, path: '/api/v1/widgets' })).toEqual([]);
    expect(() => checkRecorded([{ ...ok, status: 418 }])).toThrow(/1 REST responses do not match/);
  });
});

describe('the OpenAPI document', () => {
  it('names operations and tags them by resource', async () => {
    const d = await doc();
    expect(d.paths['/api/v1/customers'].get.operationId).toBe('listCustomers');
    expect(d.paths['/api/v1/customers/{uuid}'].get.operationId).toBe('getCustomer');
    expect(d.paths['/api/v1/invoices'].post.operationId).toBe('createInvoice');
    expect(d.paths['/api/v1/jobs/{job_uuid}/photos'].post.operationId).toBe('uploadJobPhotos');
    expect(d.paths['/api/v1/estimates/preview'].post.operationId).toBe('previewEstimate');
    expect(d.paths['/api/v1/companies/me'].get.operationId).toBe('getCompany');
    expect(d.paths['/api/v1/invoices/{uuid}'].put.tags).toEqual(['Invoices']);
    const row = (method: RouteDef['method'], path: string, o: Partial<RouteDef> = {}) => ({ method, path, summary: '', output: Object, call: async () => null, ...o }) as RouteDef;
    expect(operationId(row('POST', '/invoices/:uuid/send', { creates: true }))).toBe('sendInvoice');
    expect(operationId(row('POST', '/jobs/:uuid/invoice', { creates: true }))).toBe('invoiceJob');
    expect(operationId(row('POST', '/estimates/:uuid/convert_to_job', { creates: true }))).toBe('convertEstimateToJob');
    expect(operationId(row('POST', '/webhook_endpoints/:uuid/rotate_secret'))).toBe('rotateWebhookEndpointSecret');
    expect(operationId(row('POST', '/jobs/:job_uuid/visits', { creates: true }))).toBe('createJobVisit');
    expect(operationId(row('GET', '/invoices/:uuid/pdf'))).toBe('getInvoicePdf');
    expect(operationId(row('POST', '/invoices/:uuid/payments', { creates: true }))).toBe('createInvoicePayment');
    expect(operationId(row('GET', '/invoices/:uuid/payments', { plural: 'payments' }))).toBe('listInvoicePayments');
    expect(operationId(row('POST', '/x', { operationId: 'doX' }))).toBe('doX');
    expect(d.tags.map((x: { name: string }) => x.name)).toEqual(expect.arrayContaining(['Customers', 'Jobs', 'Photos', 'Numbering']));
  });

  it('gives each error status its own codes and examples, and documents headers', async () => {
    const op = (await doc()).paths['/api/v1/customers/{uuid}'].put;
    expect(Object.keys(op.responses)).toEqual(['200', '400', '401', '403', '404', '412', '500', '503']);
    expect(Object.keys(op.responses['401'].content['application/json'].examples)).toEqual(['UNAUTHORIZED']);
    expect(op.responses['401'].content['application/json'].examples.UNAUTHORIZED.value.error.code).toBe('UNAUTHORIZED');
    expect(op.responses['401'].headers['WWW-Authenticate']).toBeDefined();
    expect(Object.keys(op.responses['403'].content['application/json'].examples)).toEqual(['ADDON_REQUIRED', 'IP_RESTRICTED', 'USAGE_LIMIT_EXCEEDED', 'PERMISSION_DENIED']);
    expect(op.responses['403'].headers['Retry-After']).toBeDefined();
    expect(op.responses['200'].headers.ETag).toBeDefined();
    expect(op.parameters.map((p: { name: string }) => p.name)).toContain('If-Match');
    const create = (await doc()).paths['/api/v1/customers'].post;
    expect(create.responses['200'].headers['Idempotent-Replayed']).toBeDefined();
    expect(create.responses['412']).toBeUndefined();
  });

  it('bounds page and limit and lists the values of enum filters', async () => {
    const params = (await doc()).paths['/api/v1/jobs'].get.parameters;
    const by = (n: string) => params.find((p: { name: string }) => p.name === n);
    expect(by('page').schema).toEqual({ type: 'integer', minimum: 1, maximum: 1_000_000 });
    expect(by('limit').schema).toEqual({ type: 'integer', minimum: 1 });
    expect(by('status')).toMatchObject({ style: 'form', explode: false, schema: { type: 'array', items: { enum: expect.arrayContaining(['New', 'Scheduled']) } } });
  });

  it('accepts what the server accepts: phones as written, amounts like 161.29, null enums', async () => {
    const d = await doc();
    const s = d.components.schemas;
    expect(new RegExp(s.CustomerCreateInput.properties.phone.pattern).test('(217) 555-0101')).toBe(true);
    const money = Object.values<any>(s).flatMap((x) => Object.values<any>(x.properties ?? {})).filter((p) => String(p.description ?? '').includes('two decimals'));
    expect(money.length).toBeGreaterThan(5);
    for (const m of money) expect(m.multipleOf).toBeUndefined();
    const nullableEnums = Object.values<any>(s).flatMap((x) => Object.values<any>(x.properties ?? {})).filter((p) => Array.isArray(p.enum) && Array.isArray(p.type) && p.type.includes('null'));
    expect(nullableEnums.length).toBeGreaterThan(0);
    for (const e of nullableEnums) expect(e.enum).toContain(null);
    // A real create through the README's example value: the recorder validates its response.
    const a = await createTenant(t);
    expect((await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'Lovelace', phone: '(217) 555-0101' })).status).toBe(200);
  });
});

describe('the OpenAPI document beyond the route table', () => {
  it('describes every operation and every tag, the settings route under Companies', async () => {
    const d = await doc();
    const ops = [...Object.values<any>(d.paths), ...Object.values<any>(d.webhooks)].flatMap((item) => Object.values<any>(item));
    expect(ops.length).toBeGreaterThan(100);
    expect(ops.filter((op) => !op.description).map((op) => op.operationId)).toEqual([]);
    expect(d.tags.filter((x: { description?: string }) => !x.description)).toEqual([]);
    const settings = d.paths['/api/v1/companies/me/settings'].put;
    expect([settings.operationId, settings.tags]).toEqual(['updateCompanySettings', ['Companies']]);
    expect(d.paths['/api/v1/invoices/{uuid}/pdf'].get.tags).toEqual(['Invoices']);
    expect(d.paths['/api/v1/jobs/{job_uuid}/photos/{photo_uuid}/restore'].post.tags).toEqual(['Photos']);
    expect(d.paths['/api/v1/customers/{uuid}'].delete.description).toContain('POST /api/v1/customers/{uuid}/restore');
    expect(d.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });

  it('documents the signed PDF links: no API key, the signature in the query, the file or a 404', async () => {
    const d = await doc();
    for (const kind of ['invoice', 'estimate']) {
      const op = d.paths[`/api/v1/document-files/${kind}s/{company_uuid}/{${kind}_uuid}.pdf`].get;
      expect(op.security).toEqual([]);
      expect(op.parameters.filter((p: { required: boolean }) => p.required).map((p: { name: string }) => p.name)).toEqual(['company_uuid', `${kind}_uuid`, 'expires', 'sig']);
      expect(Object.keys(op.responses)).toEqual(['200', '304', '404', '500', '503']);
      expect(Object.keys(op.responses['200'].content)).toEqual(['application/pdf']);
      expect(op.responses['404'].headers['RateLimit-Limit']).toBeUndefined();
    }
  });

  it('gives each error status one closed body whose codes are its examples\' codes', async () => {
    const d = await doc();
    const forbidden = d.paths['/api/v1/customers'].get.responses['403'].content['application/json'];
    const body = d.components.schemas[forbidden.schema.$ref.split('/').pop()];
    expect(body.properties.error.properties.code.enum).toEqual(Object.keys(forbidden.examples));
    expect(body.properties.error.additionalProperties).toBe(false);
    // A 403 names the scope it lacks in details (PERMISSION_DENIED); a 404's body has none.
    expect(body.properties.error.properties.details).toBeDefined();
    const missing = d.components.schemas[d.paths['/api/v1/customers/{uuid}'].get.responses['404'].content['application/json'].schema.$ref.split('/').pop()];
    expect(missing.properties.error.properties.details).toBeUndefined();
    expect(d.components.schemas.ValidationError.properties.error.properties.details).toBeDefined();
    expect(d.paths['/api/v1/customers'].get.responses['503'].headers['Retry-After']).toBeDefined();
    expect(d.webhooks['customer.created'].post.security).toEqual([{ webhookSignature: [] }]);
    expect(d.components.securitySchemes.webhookSignature).toMatchObject({ type: 'apiKey', in: 'header', name: 'webhook-signature' });
  });
});
