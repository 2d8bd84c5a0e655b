import { print } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { CreateCustomerDocument, CustomerByGlobalIdDocument, FindCustomersDocument } from './operations';

// A typed GraphQL client (docs/clients.md): the operations in operations.graphql, typed by GraphQL
// Code Generator into operations.ts (`npm run examples`). Each document carries the types of its
// variables and result, so `request` checks both; any client that takes a TypedDocumentNode
// (Apollo Client, urql, graphql-request) uses the same documents.
//
//   API_URL=http://localhost:4000 KEY=fsk_… npx ts-node examples/graphql-client/client.ts

/** Sends one operation; throws the first GraphQL error. */
export async function request<Result, Variables>(baseUrl: string, key: string, document: TypedDocumentNode<Result, Variables>, variables: Variables): Promise<Result> {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query: print(document), variables }),
  });
  const body = (await res.json()) as { data?: Result | null; errors?: { message: string; extensions?: { code?: string } }[] };
  if (body.errors?.length || !body.data) throw new Error(`${res.status} ${body.errors?.[0]?.extensions?.code}: ${body.errors?.[0]?.message}`);
  return body.data;
}

/** Creates a customer, finds it by search, and fetches it again by its global id with node(id). */
export async function demo(baseUrl: string, key: string) {
  const { createCustomer: created } = await request(baseUrl, key, CreateCustomerDocument, {
    input: { firstName: 'Katherine', lastName: 'Johnson', phone: '(757) 555-0142', customerType: 'RESIDENTIAL' },
  });
  const { customers } = await request(baseUrl, key, FindCustomersDocument, { search: 'Johnson', limit: 5 });
  const { node } = await request(baseUrl, key, CustomerByGlobalIdDocument, { id: created.id });
  const again = node?.__typename === 'Customer' ? node : null;
  return { created, found: customers.items, total: customers.pagination.total, again };
}

if (require.main === module) {
  const { API_URL = 'http://localhost:4000', KEY } = process.env;
  if (!KEY) {
    console.error('set KEY to an API key (npm start prints the demo company\'s)');
    process.exit(2);
  }
  demo(API_URL, KEY).then(
    (r) => {
      console.log(`created ${r.created.firstName} ${r.created.lastName} (${r.created.uuid}), id ${r.created.id}`);
      console.log(`found ${r.total}: ${r.found.map((c) => c.uuid).join(', ')}`);
      console.log(`node(id): ${r.again ? `${r.again.firstName} ${r.again.lastName}` : 'not found'}`);
    },
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
