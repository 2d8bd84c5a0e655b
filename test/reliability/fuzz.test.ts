import fc from 'fast-check';
import request from 'supertest';
import { buildGraphQLSchema } from '../../src/graphql/schema';
import { routes } from '../../src/rest/routes';
import { createTenant, useTestApp } from '../helpers/app';
import { makeEverything } from '../helpers/billing';
import { fuzzRuns, graphqlValue, mutationCalls, perturbed, restBody } from '../helpers/fuzz';

jest.setTimeout(15 * 60_000);

// Property: whatever a client sends to a write route or a mutation, the answer is not a 5xx, is
// inside the envelope (REST) or the GraphQL response format with a known code, and the process
// lives on. Routes and mutations come from the route table and the schema: a new one is covered
// without editing this file. FUZZ_RUNS (default 2,000) is the number of cases: 60% REST, 40% GraphQL.
const t = useTestApp();

const writeRoutes = routes.filter((r) => r.method !== 'GET');
const ERROR_CODE = /^[A-Z][A-Z_]+$/;

/** A path with its parameters filled: the company's own records mostly, strangers sometimes. */
function pathFor(path: string, ids: Record<string, string>, stranger: boolean): string {
  return path.replace(/:(\w+)/g, (_m, name: string, offset: number) => {
    if (stranger) return '00000000-0000-4000-8000-000000000000';
    const resource = name === 'uuid' || name === 'id' ? path.slice(1, offset - 1).split('/').pop()! : name.replace(/_(uuid|id)$/, '');
    return ids[resource.replace(/s$/, '')] ?? ids[resource] ?? '00000000-0000-4000-8000-000000000000';
  });
}

it(`REST write routes (${writeRoutes.length}) answer every body inside the envelope, never 5xx`, async () => {
  const tenant = await createTenant(t, { addons: ['job_photos', 'custom_numbering'] });
  const all = await makeEverything(t, tenant);
  const ids: Record<string, string> = Object.fromEntries(Object.entries(all).map(([k, v]) => [k, (v as { uuid?: string; id?: string }).uuid ?? (v as { id: string }).id]));
  const uuids = Object.values(ids);
  // A valid starting body per route: the GET of the record its path names, or of its resource.
  const bases = new Map<string, Record<string, unknown>>();
  for (const r of writeRoutes) {
    const getPath = r.method === 'PUT' ? r.path : `${r.path.replace(/\/(preview)$/, '')}/:uuid`;
    const res = await request(t.app).get(`/api/v1${pathFor(getPath, ids, false)}`).set('Authorization', `Bearer ${tenant.key}`);
    bases.set(r.path + r.method, res.status === 200 ? res.body.data : {});
  }
  const bodies = new Map(
    writeRoutes.map((r) => [r, r.body ? fc.oneof(restBody(r.body, uuids), perturbed(r.body, bases.get(r.path + r.method)!, uuids), perturbed(r.body, bases.get(r.path + r.method)!, uuids)) : fc.constant({})]),
  );
  const cases = fc.constantFrom(...writeRoutes).chain((route) => fc.tuple(fc.constant(route), bodies.get(route)!, fc.nat(9), fc.boolean()));
  await fc.assert(
    fc.asyncProperty(cases, async ([route, body, dice, idempotent]) => {
      // Deletes name strangers (the company's records stay for the other routes), others now and then.
      const path = `/api/v1${pathFor(route.path, ids, route.method === 'DELETE' || dice === 0)}`;
      let req = request(t.app)[route.method.toLowerCase() as 'post' | 'put' | 'delete'](path).set('Authorization', `Bearer ${tenant.key}`);
      if (idempotent && route.creates) req = req.set('Idempotency-Key', `fuzz-${Math.random()}`);
      const res = await req.send(body);
      const where = `${route.method} ${path} ${JSON.stringify(body).slice(0, 500)} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
      if (res.status >= 500) throw new Error(`5xx: ${where}`);
      if (res.status === 200) {
        if (res.body?.success !== true || !('data' in res.body)) throw new Error(`not an envelope: ${where}`);
      } else if (res.body?.success !== false || res.body.data !== null || !ERROR_CODE.test(res.body.error?.code) || typeof res.body.error?.message !== 'string') {
        throw new Error(`not an error envelope: ${where}`);
      }
    }),
    { numRuns: fuzzRuns(0.6), endOnFailure: true },
  );
});

it('GraphQL mutations answer every variable set without INTERNAL or 5xx', async () => {
  const tenant = await createTenant(t, { addons: ['job_photos', 'custom_numbering'] });
  const all = await makeEverything(t, tenant);
  const uuids = Object.values(all).map((v) => (v as { uuid?: string; id?: string }).uuid ?? (v as { id: string }).id);
  const calls = mutationCalls(buildGraphQLSchema());
  expect(calls.length).toBeGreaterThan(10);
  const cases = fc.constantFrom(...calls).chain((call) => {
    const vars: Record<string, fc.Arbitrary<unknown>> = {};
    for (const a of call.args) vars[a.name] = graphqlValue(a.type, uuids);
    return fc.tuple(fc.constant(call), fc.record(vars));
  });
  await fc.assert(
    fc.asyncProperty(cases, async ([call, variables]) => {
      const res = await request(t.app).post('/graphql').set('Authorization', `Bearer ${tenant.key}`).send({ query: call.text, variables });
      const where = `${call.name} ${JSON.stringify(variables).slice(0, 500)} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
      if (res.status >= 500) throw new Error(`5xx: ${where}`);
      const errors = (res.body?.errors ?? []) as Array<{ message: unknown; extensions?: { code?: string } }>;
      if (!res.body || (!('data' in res.body) && !errors.length)) throw new Error(`not a GraphQL response: ${where}`);
      for (const e of errors) {
        const code = e.extensions?.code ?? '';
        if (code === 'INTERNAL' || !ERROR_CODE.test(code) || typeof e.message !== 'string') throw new Error(`bad error: ${where}`);
      }
    }),
    { numRuns: fuzzRuns(0.4), endOnFailure: true },
  );
});
