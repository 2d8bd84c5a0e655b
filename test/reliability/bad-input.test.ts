import request from 'supertest';
import { createTenant, gql, rest, Tenant, useTestApp } from '../helpers/app';

// Bad input answers 400 with the error envelope, never 500: body decoding, numeric bounds of list
// parameters, element types inside nested arrays, GraphQL operation names (docs/security.md).
const t = useTestApp();
let tenant: Tenant;
beforeEach(async () => {
  tenant = await createTenant(t);
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
