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
    expect(operationId(row('POST', '/invoices/:uuid/send'))).toBe('sendInvoice');
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
    expect(Object.keys(op.responses['403'].content['application/json'].examples)).toEqual(['ADDON_REQUIRED', 'IP_RESTRICTED', 'USAGE_LIMIT_EXCEEDED']);
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
