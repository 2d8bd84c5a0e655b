import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { routes } from '../../src/rest/routes';
import { MAX_JSON_DEPTH } from '../../src/schema/json-input';
import { createTenant, gql, rest, Tenant, useTestApp } from '../helpers/app';
import { png } from '../helpers/images';

// Bad input answers 400 with the error envelope, never 500: body decoding, numeric bounds of list
// parameters, element types inside nested arrays, GraphQL operation names, path ids that do not
// decode, JSON too deep or holding text PostgreSQL refuses, GraphQL multipart requests whose parts
// do not match their map (docs/security.md).
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-badinput-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
const t = useTestApp({ DATA_DIR: dataDir });
let tenant: Tenant;
beforeEach(async () => {
  tenant = await createTenant(t, { addons: ['job_photos', 'custom_numbering'] });
});

const envelope400 = (res: request.Response) => {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
};

describe('body decoding', () => {
  for (const encoding of ['gzip', 'br', 'deflate']) {
    it(`Content-Encoding: ${encoding} on a body that is not compressed: 400`, async () => {
      const res = await request(t.app).post('/api/v1/customers').set('Authorization', `Bearer ${tenant.key}`).set('Content-Type', 'application/json').set('Content-Encoding', encoding).send('{"first_name":"Ada","last_name":"L"}');
      envelope400(res);
      const g = await request(t.app).post('/graphql').set('Authorization', `Bearer ${tenant.key}`).set('Content-Type', 'application/json').set('Content-Encoding', encoding).send('{"query":"{ company { name } }"}');
      expect(g.status).toBe(400);
    });
  }
  it('an unknown Content-Encoding: 400 naming the body', async () => {
    const res = await request(t.app).post('/api/v1/customers').set('Authorization', `Bearer ${tenant.key}`).set('Content-Type', 'application/json').set('Content-Encoding', 'zstd-x').send('{}');
    envelope400(res);
    expect(res.body.error.details[0].field).toBe('body');
  });
});

describe('list page bounds', () => {
  for (const page of ['99999999999999999999', '9999999999999999', '1e3', '2.5', '-1', '0', '1000001']) {
    it(`page=${page}: 400`, async () => {
      envelope400(await rest(t, tenant).get(`/customers?page=${page}`));
      const g = await gql(t, tenant, `{ customers(page: ${/^-?\d+$/.test(page) && Math.abs(Number(page)) < 2 ** 31 ? page : 2 ** 31}) { pagination { page } } }`);
      expect(g.errors?.[0].extensions.code).toMatch(/VALIDATION_ERROR|GRAPHQL_VALIDATION_FAILED|BAD_USER_INPUT/);
    });
  }
  it('the largest page answers 200 with an empty page', async () => {
    const res = await rest(t, tenant).get('/customers?page=1000000');
    expect(res.status).toBe(200);
    expect(res.body.data.pagination.page).toBe(1000000);
  });
});

describe('element types inside nested arrays', () => {
  const bad = [1, 'a', null, [], true];
  for (const el of bad) {
    it(`line_items: [${JSON.stringify(el)}] on invoices and previews, addons on templates: 400`, async () => {
      const customer = (await rest(t, tenant).post('/customers', { first_name: 'Ada', last_name: 'L' })).body.data;
      envelope400(await rest(t, tenant).post('/invoices', { customer_uuid: customer.uuid, due_date: '2030-01-01', line_items: [el] }));
      envelope400(await rest(t, tenant).post('/invoices/preview', { line_items: [el] }));
      envelope400(await rest(t, tenant).post('/templates', { name: 'T', pricing_type: 'fixed', base_price: 10, addons: [el] }));
    });
  }
});

describe('GraphQL operation names', () => {
  it('an operationName that names no operation: 400', async () => {
    const res = await request(t.app).post('/graphql').set('Authorization', `Bearer ${tenant.key}`).send({ query: 'query A { company { name } }', operationName: 'B' });
    expect(res.status).toBe(400);
    expect(res.body.errors?.length).toBeGreaterThan(0);
  });
});

describe('path ids that are not valid percent-encoding', () => {
  // Taken as their text: the route answers as for any other id that is not a UUID (404 on a GET).
  const undecodable = ['%ff', '%', '%C0%AF', '%E0%A4%A'];
  const withIds = routes.filter((r) => r.path.includes('/:'));
  it(`every route with a path id (${withIds.length}) answers them as it answers "not-a-uuid"`, async () => {
    expect(withIds.length).toBeGreaterThan(40);
    const send = (method: string, p: string) => request(t.app)[method.toLowerCase() as 'get'](`/api/v1${p}`).set('Authorization', `Bearer ${tenant.key}`);
    for (const route of withIds) {
      const reference = await send(route.method, route.path.replace(/:\w+/g, 'not-a-uuid'));
      expect(reference.status).toBeLessThan(500);
      for (const id of undecodable) {
        const res = await send(route.method, route.path.replace(/:\w+/g, id));
        expect([route.method, route.path, id, res.status, res.body.error?.code]).toEqual([route.method, route.path, id, reference.status, reference.body.error.code]);
      }
    }
  });
  it('a GET of a record: 404 NOT_FOUND with the resource named, as for any id that names nothing', async () => {
    for (const id of undecodable) {
      const res = await rest(t, tenant).get(`/customers/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, data: null, error: { code: 'NOT_FOUND', message: 'Customer not found' } });
    }
  });
  it('the routes outside the table (document files, the share page) answer 404 too', async () => {
    expect((await request(t.app).get('/api/v1/document-files/%ff/x/y')).status).toBe(404);
    expect((await request(t.app).get('/p/%ff')).status).toBe(404);
    expect((await request(t.app).post('/p/%C0%AF/accept').type('form').send('x=1')).status).toBe(404);
  });
  it('GraphQL: the same text as an id argument is a VALIDATION_ERROR naming it', async () => {
    const g = await gql(t, tenant, 'query($u: UUID!) { customer(uuid: $u) { uuid } }', { u: '%ff' });
    expect(g.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'uuid' }] });
  });
});

/** A raw JSON text to a REST route (so that escapes such as a lone surrogate reach the server as sent). */
const restRaw = (p: string, json: string, headers: Record<string, string> = {}) =>
  request(t.app).post(`/api/v1${p}`).set('Authorization', `Bearer ${tenant.key}`).set('Content-Type', 'application/json').set(headers).send(json);
const gqlRaw = (json: string, headers: Record<string, string> = {}) => request(t.app).post('/graphql').set('Authorization', `Bearer ${tenant.key}`).set('Content-Type', 'application/json').set(headers).send(json);
const UUID = '00000000-0000-4000-8000-000000000000';

/** REST field, GraphQL field, route, mutation with its input type, and the rest of a body. */
const JSON_FIELDS: Array<[string, string, string, string, Record<string, unknown>, Record<string, unknown>]> = [
  ['internal_flags', 'internalFlags', '/customers', 'createCustomer(input: $i) { uuid }|CustomerCreateInput!', { first_name: 'A', last_name: 'B' }, { firstName: 'A', lastName: 'B' }],
  ['payment_details', 'paymentDetails', '/payments', 'createPayment(input: $i) { uuid }|PaymentCreateInput!', { invoice_uuid: UUID, amount: 1, payment_type: 'cash', payment_date: '2026-01-01' }, { invoiceUuid: UUID, amount: 1, paymentType: 'CASH', paymentDate: '2026-01-01' }],
  ['business_hours', 'businessHours', '/locations', 'createLocation(input: $i) { uuid }|LocationCreateInput!', { name: 'N', address1: '1 A St', city: 'X', state: 'TX', zip: '75001' }, { name: 'N', address1: '1 A St', city: 'X', state: 'TX', zip: '75001' }],
  ['service_types_offered', 'serviceTypesOffered', '/locations', 'createLocation(input: $i) { uuid }|LocationCreateInput!', { name: 'N', address1: '1 A St', city: 'X', state: 'TX', zip: '75001' }, { name: 'N', address1: '1 A St', city: 'X', state: 'TX', zip: '75001' }],
];
const mutation = (spec: string) => {
  const [call, type] = spec.split('|');
  return `mutation($i: ${type}) { ${call} }`;
};
const details400 = (res: request.Response, field: string, message: RegExp) => {
  expect(res.status).toBe(400);
  const details = res.body.error?.details ?? res.body.errors?.[0]?.extensions?.details;
  expect(res.body.error?.code ?? res.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_ERROR');
  expect(details).toEqual([{ field, message: expect.stringMatching(message) }]);
  expect(details[0].message.startsWith(`${field} `)).toBe(true);
};

describe('JSON text PostgreSQL refuses: a lone UTF-16 surrogate, a NUL', () => {
  const texts: Array<[string, RegExp]> = [
    ['\\ud800', /lone UTF-16 surrogate/],
    ['x\\udfffy', /lone UTF-16 surrogate/],
    ['\\u0000', /NUL/],
  ];
  for (const [restName, gqlName, route, spec, restBase, gqlBase] of JSON_FIELDS) {
    for (const [text, message] of texts) {
      it(`"${text}" in ${restName}: 400 naming its path on both surfaces`, async () => {
        const value = restName === 'service_types_offered' ? `["ok", {"k": "${text}"}]` : `{"k": ["ok", "${text}"]}`;
        const at = restName === 'service_types_offered' ? '[1].k' : '.k[1]';
        details400(await restRaw(route, `{${JSON.stringify(restBase).slice(1, -1)}, "${restName}": ${value}}`), `${restName}${at}`, message);
        const vars = `{"i": {${JSON.stringify(gqlBase).slice(1, -1)}, "${gqlName}": ${value}}}`;
        details400(await gqlRaw(`{"query": ${JSON.stringify(mutation(spec))}, "variables": ${vars}}`), `${gqlName}${at}`, message);
      });
    }
  }
  it('in a plain string field and in a key too; a surrogate pair is fine', async () => {
    details400(await restRaw('/customers', '{"first_name": "\\udc00", "last_name": "B"}'), 'first_name', /lone UTF-16 surrogate/);
    details400(await restRaw('/customers', '{"first_name": "A", "last_name": "B", "internal_flags": {"\\ud800": 1}}'), 'internal_flags', /key holding a lone UTF-16 surrogate/);
    const ok = await restRaw('/customers', '{"first_name": "\\ud83d\\ude00", "last_name": "B", "internal_flags": {"k": "\\ud83d\\ude00"}}');
    expect(ok.status).toBe(200);
    expect(ok.body.data.first_name).toBe('😀');
    expect(ok.body.data.internal_flags).toEqual({ k: '😀' });
  });
  it('GraphQL: in a variable passed to an argument, and NUL written in the document (a literal)', async () => {
    details400(await gqlRaw(`{"query": "query($s: String) { customers(search: $s) { items { uuid } } }", "variables": {"s": "a\\ud800"}}`), 'search', /lone UTF-16 surrogate/);
    const literal = 'mutation { createCustomer(input: {firstName: "A", lastName: "B", internalFlags: {k: ["ok", "\\u0000"]}}) { uuid } }';
    details400(await gqlRaw(JSON.stringify({ query: literal })), 'internalFlags.k[1]', /NUL/);
  });
});

/** `levels` nested lists: `[[...]]`. */
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`, () => {
  for (const [restName, gqlName, route, spec, restBase, gqlBase] of JSON_FIELDS) {
    it(`5,000 levels in ${restName}: 400 naming it on both surfaces, with and without an Idempotency-Key`, async () => {
      for (const headers of [{}, { 'Idempotency-Key': `deep-${restName}` }] as Array<Record<string, string>>) {
        details400(await restRaw(route, `{${JSON.stringify(restBase).slice(1, -1)}, "${restName}": {"k": ${nested(5000)}}}`, headers), restName, /nested more than 64 levels deep/);
        const vars = `{"i": {${JSON.stringify(gqlBase).slice(1, -1)}, "${gqlName}": {"k": ${nested(5000)}}}}`;
        details400(await gqlRaw(`{"query": ${JSON.stringify(mutation(spec))}, "variables": ${vars}}`, headers), 'input', /nested more than 64 levels deep/);
      }
    });
  }
  it(`a body of exactly ${MAX_JSON_DEPTH} levels is taken; one more is refused, unknown fields and variables included`, async () => {
    // The body is level 1, internal_flags level 2: its value holds 62 more levels.
    const ok = await restRaw('/customers', `{"first_name": "A", "last_name": "B", "internal_flags": {"k": ${nested(MAX_JSON_DEPTH - 2)}}}`);
    expect(ok.status).toBe(200);
    details400(await restRaw('/customers', `{"first_name": "A", "last_name": "B", "internal_flags": {"k": ${nested(MAX_JSON_DEPTH - 1)}}}`), 'internal_flags', /nested/);
    details400(await restRaw('/customers', `{"first_name": "A", "last_name": "B", "zz": ${nested(5000)}}`, { 'Idempotency-Key': 'deep-unknown' }), 'zz', /nested/);
    const q = JSON.stringify(mutation(JSON_FIELDS[0][3]));
    details400(await gqlRaw(`{"query": ${q}, "variables": {"i": {"firstName": "A", "lastName": "B"}, "unused": ${nested(5000)}}}`, { 'Idempotency-Key': 'deep-var' }), 'unused', /nested/);
  });
  it('an Idempotency-Key refused with a deep body stays free: the same key then creates', async () => {
    details400(await restRaw('/customers', `{"first_name": "A", "last_name": "B", "internal_flags": ${nested(5000)}}`, { 'Idempotency-Key': 'k1' }), 'internal_flags', /nested/);
    const ok = await restRaw('/customers', '{"first_name": "A", "last_name": "B"}', { 'Idempotency-Key': 'k1' });
    expect(ok.status).toBe(200);
    expect(ok.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('GraphQL multipart requests whose parts do not match (as the REST upload answers)', () => {
  const UPLOAD = 'mutation($j: UUID!, $files: [Upload!]!) { uploadJobPhotos(jobUuid: $j, files: $files) { photos { uuid } } }';
  const jobOf = async () => {
    const c = (await rest(t, tenant).post('/customers', { first_name: 'A', last_name: 'B' })).body.data;
    return (await rest(t, tenant).post('/jobs', { customer_uuid: c.uuid, title: 'Fix' })).body.data.uuid as string;
  };
  const upload = (j: string, count: number) =>
    request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${tenant.key}`)
      .set('apollo-require-preflight', 'true')
      .field('operations', JSON.stringify({ query: UPLOAD, variables: { j, files: Array(count).fill(null) } }))
      .field('map', JSON.stringify(Object.fromEntries(Array.from({ length: count }, (_, i) => [String(i), [`variables.files.${i}`]]))));
  const photos = async (j: string) => (await rest(t, tenant).get(`/jobs/${j}/photos`)).body.data.photos;

  it('a map naming a file part that never comes: 400 naming the file', async () => {
    const j = await jobOf();
    const res = await upload(j, 2).attach('0', png(), 'a.png');
    details400(res, 'files[1]', /not in the request/);
    expect(await photos(j)).toEqual([]);
  });
  it('a file name with control characters: 400 naming the body, as REST answers', async () => {
    const j = await jobOf();
    const res = await upload(j, 1).attach('0', png(), 'a\u0001\u001b.png');
    details400(res, 'body', /not a valid multipart/);
    const viaRest = await request(t.app).post(`/api/v1/jobs/${j}/photos`).set('Authorization', `Bearer ${tenant.key}`).attach('photos', png(), 'a\u0001\u001b.png');
    details400(viaRest, 'body', /not a valid multipart/);
    expect(await photos(j)).toEqual([]);
  });
});
