import fc from 'fast-check';
import request from 'supertest';
import { buildGraphQLSchema } from '../../src/graphql/schema';
import { routes } from '../../src/rest/routes';
import { createTenant, useTestApp } from '../helpers/app';
import { makeEverything } from '../helpers/billing';
import { getNamedType, isInputObjectType, isNonNullType } from 'graphql';
import { fuzzRuns, graphqlValue, hostileJson, hostileText, jsonText, mutationCalls, perturbed, restBody, undecodableIds } from '../helpers/fuzz';
import { JPEG, png, TEXT } from '../helpers/images';

jest.setTimeout(15 * 60_000);

// Property: whatever a client sends to a write route or a mutation, the answer is not a 5xx, is
// inside the envelope (REST) or the GraphQL response format with a known code, and the process
// lives on. Routes and mutations come from the route table and the schema: a new one is covered
// without editing this file. FUZZ_RUNS (default 2,000) is the number of cases: 60% REST, 40% GraphQL.
const t = useTestApp();

const writeRoutes = routes.filter((r) => r.method !== 'GET');
const ERROR_CODE = /^[A-Z][A-Z_]+$/;

/**
 * A path with its parameters filled: the company's own records mostly, strangers sometimes, and
 * now and then an id that is not valid percent-encoding.
 */
function pathFor(path: string, ids: Record<string, string>, stranger: boolean | string): string {
  return path.replace(/:(\w+)/g, (_m, name: string, offset: number) => {
    if (typeof stranger === 'string') return stranger;
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
  const cases = fc.constantFrom(...writeRoutes).chain((route) => fc.tuple(fc.constant(route), bodies.get(route)!, fc.nat(9), fc.boolean(), fc.constantFrom(...undecodableIds)));
  await fc.assert(
    fc.asyncProperty(cases, async ([route, body, dice, idempotent, undecodable]) => {
      // Deletes name strangers (the company's records stay for the other routes), others now and then.
      const path = `/api/v1${pathFor(route.path, ids, dice === 1 ? undecodable : route.method === 'DELETE' || dice === 0)}`;
      let req = request(t.app)[route.method.toLowerCase() as 'post' | 'put' | 'delete'](path).set('Authorization', `Bearer ${tenant.key}`);
      if (idempotent && route.creates) req = req.set('Idempotency-Key', `fuzz-${Math.random()}`);
      // The JSON text written here: superagent's own serialiser cannot write the deepest values.
      const res = await req.set('Content-Type', 'application/json').send(jsonText(body));
      const where = `${route.method} ${path} ${fc.stringify(body).slice(0, 500)} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
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
    return fc.tuple(fc.constant(call), fc.record(vars), fc.boolean());
  });
  await fc.assert(
    fc.asyncProperty(cases, async ([call, variables, idempotent]) => {
      let req = request(t.app).post('/graphql').set('Authorization', `Bearer ${tenant.key}`);
      if (idempotent) req = req.set('Idempotency-Key', `fuzz-${Math.random()}`);
      const res = await req.set('Content-Type', 'application/json').send(jsonText({ query: call.text, variables }));
      const where = `${call.name} ${fc.stringify(variables).slice(0, 500)} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
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

// Random variables rarely make a whole valid input, so text PostgreSQL refuses would seldom get to
// it: every update mutation is also called on the company's own record with one text or JSON field
// of its input made hostile (the others absent, so the update is otherwise valid).
it('GraphQL updates with one text or JSON field hostile, and idempotent calls with a hostile variable, answer without INTERNAL or 5xx', async () => {
  const tenant = await createTenant(t, { addons: ['job_photos', 'custom_numbering'] });
  const all = await makeEverything(t, tenant);
  const ids: Record<string, string> = Object.fromEntries(Object.entries(all).map(([k, v]) => [k.toLowerCase(), (v as { uuid?: string; id?: string }).uuid ?? (v as { id: string }).id]));
  const targets = mutationCalls(buildGraphQLSchema()).flatMap((call) => {
    const input = call.args.find((a) => a.name === 'input');
    const uuid = ids[call.name.replace(/^update/, '').toLowerCase()];
    const type = input && getNamedType(input.type);
    if (!call.name.startsWith('update') || !uuid || !call.args.some((a) => a.name === 'uuid') || !type || !isInputObjectType(type)) return [];
    const fields = Object.values(type.getFields()).filter((f) => ['JSON', 'String'].includes(getNamedType(f.type).name));
    return fields.map((f) => ({ call, uuid, field: f.name, json: getNamedType(f.type).name === 'JSON' }));
  });
  expect(targets.length).toBeGreaterThan(20);
  // And the mutations that honour an Idempotency-Key and need nothing but ids, with a hostile
  // variable beside theirs (unused, but part of what the key's hash covers).
  const idempotent = mutationCalls(buildGraphQLSchema()).filter(
    (c) => /^(create|send|invoiceJob|convertEstimateToJob)/.test(c.name) && c.args.every((a) => !isNonNullType(a.type) || getNamedType(a.type).name === 'UUID'),
  );
  expect(idempotent.length).toBeGreaterThan(2);
  const cases = fc.oneof(
    fc.constantFrom(...targets).chain((target) => fc.tuple(fc.constant(target.call), fc.constant({ uuid: target.uuid }), fc.constant(target.field), target.json ? hostileJson : hostileText)),
    fc.constantFrom(...idempotent).map((call) => [call, Object.fromEntries(call.args.filter((a) => isNonNullType(a.type)).map((a) => [a.name, ids.invoice])), null, null] as const).chain(([call, args]) => fc.tuple(fc.constant(call), fc.constant(args), fc.constant(null), hostileJson)),
  );
  await fc.assert(
    fc.asyncProperty(cases, async ([call, args, field, value]) => {
      const variables = field ? { ...args, input: { [field]: value } } : { ...args, extra: value };
      let req = request(t.app).post('/graphql').set('Authorization', `Bearer ${tenant.key}`);
      if (!field) req = req.set('Idempotency-Key', `fuzz-${Math.random()}`);
      const res = await req.set('Content-Type', 'application/json').send(jsonText({ query: call.text, variables }));
      const where = `${call.name} ${fc.stringify(variables).slice(0, 300)} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
      if (res.status >= 500) throw new Error(`5xx: ${where}`);
      for (const e of (res.body?.errors ?? []) as Array<{ extensions?: { code?: string } }>) {
        if (e.extensions?.code === 'INTERNAL' || !ERROR_CODE.test(e.extensions?.code ?? '')) throw new Error(`bad error: ${where}`);
      }
    }),
    { numRuns: fuzzRuns(0.1), endOnFailure: true },
  );
});

// File names with control characters and maps that name parts never sent, on both upload routes:
// answered inside the envelope (REST) or as VALIDATION_ERRORs (GraphQL), never a 5xx.
it('photo uploads with any file names and maps answer without INTERNAL or 5xx', async () => {
  const tenant = await createTenant(t, { addons: ['job_photos'] });
  const all = await makeEverything(t, tenant);
  const job = all.job.uuid as string;
  const UPLOAD = 'mutation($j: UUID!, $files: [Upload!]!) { uploadJobPhotos(jobUuid: $j, files: $files) { photos { uuid } } }';
  const names = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('a.png', 'a\u0001.png', 'x\u001b[31m.jpg', '\u007f', 'a\r\nb.png', '../../etc/passwd', '"q".png'));
  const file = fc.tuple(fc.constantFrom(png(), JPEG, TEXT), names);
  // Files declared in the map, and which of them the request sends.
  const cases = fc.tuple(fc.array(fc.tuple(file, fc.boolean()), { minLength: 1, maxLength: 3 }), fc.boolean());
  await fc.assert(
    fc.asyncProperty(cases, async ([files, viaRest]) => {
      let res: request.Response;
      if (viaRest) {
        let req = request(t.app).post(`/api/v1/jobs/${job}/photos`).set('Authorization', `Bearer ${tenant.key}`);
        for (const [[bytes, name]] of files) req = req.attach('photos', bytes, name);
        res = await req;
      } else {
        let req = request(t.app)
          .post('/graphql')
          .set('Authorization', `Bearer ${tenant.key}`)
          .set('apollo-require-preflight', 'true')
          .field('operations', JSON.stringify({ query: UPLOAD, variables: { j: job, files: files.map(() => null) } }))
          .field('map', JSON.stringify(Object.fromEntries(files.map((_, i) => [String(i), [`variables.files.${i}`]]))));
        files.forEach(([[bytes, name], sent], i) => {
          if (sent) req = req.attach(String(i), bytes, name);
        });
        res = await req;
      }
      const where = `${viaRest ? 'REST' : 'GraphQL'} ${JSON.stringify(files.map(([[b, n], sent]) => [b.length, n, sent]))} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
      if (res.status >= 500) throw new Error(`5xx: ${where}`);
      const codes = viaRest ? [res.body?.error?.code ?? 'OK'] : ((res.body?.errors ?? []) as Array<{ extensions?: { code?: string } }>).map((e) => e.extensions?.code ?? '');
      if (codes.some((c) => c === 'INTERNAL' || (c !== 'OK' && !ERROR_CODE.test(c)))) throw new Error(`bad error: ${where}`);
    }),
    { numRuns: fuzzRuns(0.05), endOnFailure: true },
  );
});
