import { GraphQLObjectType } from 'graphql';
import { buildGraphQLSchema } from '../../src/graphql/schema';
import { createTenant, gql, rest, useTestApp } from '../helpers/app';
import { makeInvoice, pay } from '../helpers/billing';

// Field resolvers marked @DirectCall() are called without TypeGraphQL's handler
// (src/graphql/direct-resolvers.ts); GRAPHQL_DIRECT_CALLS=false runs every one through it. Both
// must answer alike: the same data, arguments (given, defaulted, null) and errors.
const direct = useTestApp();
const handled = useTestApp({ GRAPHQL_DIRECT_CALLS: 'false' });

const QUERIES: Array<[string, Record<string, unknown>?]> = [
  [`query($limit: Int) { invoices(limit: $limit) { items { uuid status customer { uuid firstName email } payments { uuid amount status paymentDate } } } }`, { limit: 10 }],
  [`{ invoices { items { uuid p1: payments(limit: 1) { amount } p0: payments(limit: 0) { amount } pBig: payments(limit: 5000) { amount } customer { lastName } } } }`],
  [`query($l: Int!) { invoices { items { payments(limit: $l) { uuid } } } }`, { l: 2 }],
  [`{ invoices { items { payments(limit: -3) { uuid } } } }`],
  [`{ customers { items { invoices { uuid customer { uuid } payments { uuid } } } } }`],
];

it('only the marked fields are called directly', () => {
  const field = (directCalls: boolean, name: string) => (buildGraphQLSchema(directCalls).getType('Invoice') as GraphQLObjectType).getFields()[name].resolve;
  expect(field(true, 'payments')).not.toBe(field(false, 'payments'));
  expect(field(true, 'customer')).not.toBe(field(false, 'customer'));
  expect(field(true, 'job')!.toString()).toBe(field(false, 'job')!.toString());
});

it('answers every query as the handler does', async () => {
  const a = await createTenant(direct);
  for (let i = 0; i < 3; i++) {
    const inv = await makeInvoice(direct, a);
    for (let k = 0; k <= i; k++) expect((await pay(direct, a, inv.uuid, 10 + k)).status).toBe(200);
  }
  expect((await rest(direct, a).get('/invoices')).body.data.invoices).toHaveLength(3);
  for (const [query, variables] of QUERIES) {
    const [x, y] = [await gql(direct, a, query, variables), await gql(handled, a, query, variables)];
    expect({ query, body: x }).toEqual({ query, body: y });
  }
});
