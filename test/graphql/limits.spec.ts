import { getIntrospectionQuery } from 'graphql';
import request from 'supertest';
import { createTenant, Tenant, TestApp, useTestApp } from '../helpers/app';

const t = useTestApp();

async function post(app: TestApp, tenant: Tenant | null, query: string, variables?: object) {
  const r = request(app.app).post('/graphql');
  if (tenant) r.set('Authorization', `Bearer ${tenant.key}`);
  return r.send({ query, variables });
}

describe('GraphQL query cost', () => {
  it.each([
    ['{ company { uuid name } }', 1, 2],
    // A page costs 1 + limit (default 50) × its selection; each record is an object (1).
    ['{ customers { items { uuid } pagination { total } } }', 1 + 50 * 2, 3],
    ['{ customers(limit: 100) { items { uuid } } }', 101, 3],
    // limit above 100 is clamped, as the resolvers do.
    ['{ customers(limit: 500) { items { uuid } } }', 101, 3],
    ['{ customers(limit: 10) { items { uuid primaryServiceLocation { name } } } }', 1 + 10 * 2, 4],
    // A relation list costs limit (default and maximum 100) × (1 + its selection).
    ['{ customers(limit: 10) { items { jobs { uuid } } } }', 1 + 10 * (1 + 100), 4],
    ['{ customers(limit: 10) { items { jobs(limit: 5) { uuid customer { uuid } } } } }', 1 + 10 * (1 + 5 * 2), 5],
    ['{ a: company { uuid } b: company { uuid } }', 2, 2],
  ])('%s costs %i (depth %i), reported in extensions.cost', async (query, cost, depth) => {
    const a = await createTenant(t);
    const res = await post(t, a, query);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.extensions.cost).toEqual({ requestedQueryCost: cost, maximumAvailable: 25000, depth, maximumDepth: 10 });
  });

  it('takes limit from variables', async () => {
    const a = await createTenant(t);
    const res = await post(t, a, 'query($n: Int) { customers(limit: $n) { items { uuid } } }', { n: 20 });
    expect(res.body.extensions.cost.requestedQueryCost).toBe(21);
  });

  it('reports the cost of mutations and of operations that fail in a resolver', async () => {
    const a = await createTenant(t);
    const created = await post(t, a, 'mutation { createCustomer(input: { firstName: "A", lastName: "B" }) { uuid } }');
    expect(created.body.extensions.cost.requestedQueryCost).toBe(1);
    const missing = await post(t, a, '{ customer(uuid: "00000000-0000-4000-8000-000000000000") { uuid } }');
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(missing.body.extensions.cost.requestedQueryCost).toBe(1);
  });

  it('refuses an operation costlier than the maximum with a clear 400, executing nothing', async () => {
    const a = await createTenant(t);
    const query = '{ customers(limit: 100) { items { jobs { customer { jobs { uuid } } } } } }';
    const res = await post(t, a, query);
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toHaveLength(1);
    const cost = 1 + 100 * (1 + 100 * (1 + 1 + 100));
    expect(res.body.errors[0].message).toBe(
      `query costs ${cost}, more than the maximum of 25000; ask for fewer records (lower limit arguments) or fewer nested lists`,
    );
    expect(res.body.errors[0].extensions).toEqual({ code: 'VALIDATION_ERROR', details: [{ field: 'query', message: res.body.errors[0].message }] });
    expect(res.body.extensions.cost).toMatchObject({ requestedQueryCost: cost, maximumAvailable: 25000 });
  });

  it('keeps introspection available to authenticated keys, at no cost and whatever its depth', async () => {
    const a = await createTenant(t);
    const res = await post(t, a, getIntrospectionQuery());
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.__schema.queryType.name).toBe('Query');
    expect(res.body.extensions.cost).toMatchObject({ requestedQueryCost: 0, depth: 0 });
    const anonymous = await post(t, null, getIntrospectionQuery());
    expect(anonymous.status).toBe(401);
  });
});

describe('GraphQL depth', () => {
  // customers → items → jobs → customer → jobs … : depth counts every field level.
  const nested = (levels: number): string => {
    let inner = 'uuid';
    // Built inside out; the outermost level under a customer is `jobs`.
    for (let i = levels - 1; i >= 0; i--) inner = i % 2 === 0 ? `jobs(limit: 1) { ${inner} }` : `customer { ${inner} }`;
    return `{ customers(limit: 1) { items { ${inner} } } }`;
  };

  it('allows the maximum depth (10) and refuses one more level', async () => {
    const a = await createTenant(t);
    const ok = await post(t, a, nested(7));
    expect(ok.status).toBe(200);
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.extensions.cost.depth).toBe(10);
    const deep = await post(t, a, nested(8));
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0]).toMatchObject({
      message: 'query is nested 11 levels deep; the maximum depth is 10',
      extensions: { code: 'VALIDATION_ERROR' },
    });
  });

  it('counts depth through fragments and inline fragments', async () => {
    const a = await createTenant(t);
    const query = `
      query { customers(limit: 1) { items { ...C } } }
      fragment C on Customer { jobs(limit: 1) { ... on Job { customer { ...D } } } }
      fragment D on Customer { jobs(limit: 1) { customer { jobs(limit: 1) { customer { jobs(limit: 1) { customer { uuid } } } } } } }`;
    const res = await post(t, a, query);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe('query is nested 11 levels deep; the maximum depth is 10');
  });
});

describe('configured limits (GRAPHQL_MAX_DEPTH, GRAPHQL_MAX_COST)', () => {
  const small = useTestApp({ GRAPHQL_MAX_DEPTH: '3', GRAPHQL_MAX_COST: '150' });

  it('applies the configured depth', async () => {
    const a = await createTenant(small);
    expect((await post(small, a, '{ customers { items { uuid } } }')).status).toBe(200);
    const res = await post(small, a, '{ customers(limit: 1) { items { primaryServiceLocation { uuid } } } }');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe('query is nested 4 levels deep; the maximum depth is 3');
  });

  it('applies the configured cost to aliases, and refused mutations change nothing', async () => {
    const a = await createTenant(small);
    const one = await post(small, a, '{ a: customers(limit: 100) { items { uuid } } }');
    expect(one.body.extensions.cost).toMatchObject({ requestedQueryCost: 101, maximumAvailable: 150 });
    const two = await post(small, a, '{ a: customers(limit: 100) { items { uuid } } b: customers(limit: 100) { items { uuid } } }');
    expect(two.status).toBe(400);
    expect(two.body.errors[0].message).toMatch(/^query costs 202, more than the maximum of 150/);

    const create = (i: number) => `c${i}: createCustomer(input: { firstName: "A", lastName: "B" }) { uuid primaryServiceLocation { uuid } }`;
    const many = await post(small, a, `mutation { ${Array.from({ length: 80 }, (_, i) => create(i)).join(' ')} }`);
    expect(many.status).toBe(400);
    expect(many.body.errors[0].message).toMatch(/^query costs 160, more than the maximum of 150/);
    const count = await post(small, a, '{ customers { pagination { total } } }');
    expect(count.body.data.customers.pagination.total).toBe(0);
  });
});
