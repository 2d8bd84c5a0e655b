import { createTenant, gql, rest, useTestApp } from '../helpers/app';

// Queries run compiled by graphql-jit (src/graphql/executor.ts); GRAPHQL_JIT=false interprets them
// with graphql-js. Both must answer every query alike: data, nulls, errors and their codes.
const jit = useTestApp();
const interpreted = useTestApp({ GRAPHQL_JIT: 'false' });

const QUERIES: Array<[string, Record<string, unknown>?]> = [
  [
    `query Page($limit: Int) { invoices(limit: $limit) { items { uuid invoiceNumber status issueDate dueDate totalAmount paidAmount balanceAmount createdAt
        lineItems { description quantity unitPrice lineTotal taxRate taxAmount }
        customer { uuid firstName lastName email isVip } job { uuid jobNumber status } estimate { uuid }
        payments { uuid paymentNumber amount netAmount status paymentDate } } pagination { page limit total totalPages } } }`,
    { limit: 10 },
  ],
  [`{ customers(limit: 2) { items { uuid __typename firstName jobs(limit: 1) { uuid title } invoices { uuid } } pagination { total } } }`],
  [`query($u: UUID!) { customer(uuid: $u) { uuid } }`, { u: '00000000-0000-4000-8000-000000000000' }],
  [`{ jobs(limit: 0) { items { uuid } } }`],
  [`{ a: invoices(limit: 1) { items { uuid } } b: invoices(limit: 1, page: 2) { items { uuid } pagination { page } } }`],
  [`query($skip: Boolean!) { customers { items { uuid email @skip(if: $skip) ... on Customer { lastName } } } }`, { skip: true }],
];

describe('compiled queries (graphql-jit) answer as graphql-js does', () => {
  it('gives the same body for pages with relations, aliases, fragments, directives and errors', async () => {
    const seed = async (t: typeof jit) => {
      const a = await createTenant(t);
      const c = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' })).body.data;
      const job = (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'Leak' })).body.data;
      const inv = (
        await rest(t, a).post('/invoices', { job_uuid: job.uuid, customer_uuid: c.uuid, issue_date: '2025-12-01', due_date: '2026-01-01', line_items: [{ description: 'Labor', quantity: 2, unit_price: 85, tax_rate: 5 }] })
      ).body.data;
      await rest(t, a).post('/payments', { invoice_uuid: inv.uuid, amount: 50, payment_method: 'Cash' });
      return a;
    };
    const [a, b] = [await seed(jit), await seed(interpreted)];
    // The records differ between the two databases (ids, times): compare the shapes and the values
    // that do not depend on them.
    const normalize = (v: unknown): unknown =>
      JSON.parse(JSON.stringify(v), (k, x) => (typeof x === 'string' && /^[0-9a-f-]{36}$|^\d{4}-\d\d-\d\dT/.test(x) ? `<${k}>` : x));
    for (const [query, variables] of QUERIES) {
      const [x, y] = [await gql(jit, a, query, variables), await gql(interpreted, b, query, variables)];
      expect({ query, body: normalize(x) }).toEqual({ query, body: normalize(y) });
    }
    const errorCase = await gql(jit, a, QUERIES[2][0], QUERIES[2][1]);
    expect(errorCase.errors?.[0]).toMatchObject({ path: ['customer'], extensions: { code: 'NOT_FOUND' } });
    expect((errorCase.errors?.[0] as { locations?: unknown }).locations).toEqual([{ line: 1, column: 20 }]);
  });
});
