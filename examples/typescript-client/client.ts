import createClient from 'openapi-fetch';
import type { components, paths } from './api';

// A typed REST client (docs/clients.md): openapi-fetch over the types openapi-typescript generated
// from the server's OpenAPI document (api.d.ts; `npm run examples` regenerates it). Paths, query
// parameters, bodies and answers are checked by the TypeScript compiler.
//
//   API_URL=http://localhost:4000 KEY=fsk_… npx ts-node examples/typescript-client/client.ts

type Customer = components['schemas']['Customer'];

/** A client for one API key. List filters are arrays sent comma-separated, as the document says (explode: false). */
export function apiClient(baseUrl: string, key: string) {
  return createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${key}` },
    querySerializer: { array: { style: 'form', explode: false } },
  });
}

/** Throws the error envelope's code and message; returns the data of a success. */
function unwrap<T>(r: { data?: { data: T }; error?: { error: { code: string; message: string } }; response: Response }): T {
  if (r.error || !r.data) throw new Error(`${r.response.status} ${r.error?.error.code}: ${r.error?.error.message}`);
  return r.data.data;
}

/** Creates a customer, finds it in a filtered list, updates it with If-Match, and reads it back. */
export async function demo(baseUrl: string, key: string): Promise<{ created: Customer; listed: Customer[]; updated: Customer; stale: number }> {
  const api = apiClient(baseUrl, key);

  const created = unwrap(
    await api.POST('/api/v1/customers', {
      body: { first_name: 'Grace', last_name: 'Hopper', phone: '(217) 555-0199', customer_type: 'Commercial', company_name: 'Cobol Cooling' },
      headers: { 'Idempotency-Key': `example-${Date.now()}` },
    }),
  );

  const { customers: listed } = unwrap(
    await api.GET('/api/v1/customers', { params: { query: { search: 'Hopper', filter: ['commercial', 'vip'], sort: '-updated_at', limit: 10 } } }),
  );

  // Conditional update: the ETag of the GET, sent back as If-Match; a stale one answers 412.
  const got = await api.GET('/api/v1/customers/{uuid}', { params: { path: { uuid: created.uuid } } });
  const etag = got.response.headers.get('ETag') ?? '';
  const updated = unwrap(
    await api.PUT('/api/v1/customers/{uuid}', { params: { path: { uuid: created.uuid } }, headers: { 'If-Match': etag }, body: { is_vip: true } }),
  );
  const again = await api.PUT('/api/v1/customers/{uuid}', { params: { path: { uuid: created.uuid } }, headers: { 'If-Match': etag }, body: { notes: 'lost update' } });

  return { created, listed, updated, stale: again.response.status };
}

if (require.main === module) {
  const { API_URL = 'http://localhost:4000', KEY } = process.env;
  if (!KEY) {
    console.error('set KEY to an API key (npm start prints the demo company\'s)');
    process.exit(2);
  }
  demo(API_URL, KEY).then(
    (r) => {
      console.log(`created ${r.created.first_name} ${r.created.last_name} (${r.created.uuid}), phone ${r.created.phone}`);
      console.log(`listed ${r.listed.length}: ${r.listed.map((c) => c.uuid).join(', ')}`);
      console.log(`updated: is_vip=${r.updated.is_vip}; a second update with the old ETag answered ${r.stale}`);
    },
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
