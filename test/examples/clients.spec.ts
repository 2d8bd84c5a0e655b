import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTenant, rest, useTestApp } from '../helpers/app';
import { ServerProcess, startServer } from '../helpers/server-process';

// The typed clients of examples/ (docs/clients.md): generated from the server's contracts and
// committed, type-checked as a client project would be, and run against a started server.

const ROOT = path.resolve(__dirname, '../..');
const run = promisify(execFile);
const t = useTestApp();
let server: ServerProcess;

beforeAll(async () => {
  server = await startServer({ DATABASE_URL: t.url });
});
afterAll(async () => {
  server?.kill('SIGTERM');
  await server?.exited;
});

/** Runs an example as its header says (ts-node), against the started server with a key. */
async function example(file: string, key: string): Promise<string[]> {
  const { stdout } = await run(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(ROOT, file)], {
    cwd: ROOT,
    env: { ...process.env, API_URL: `http://127.0.0.1:${server.port}`, KEY: key },
  });
  return stdout.trim().split('\n');
}

it('the committed generated files are what the server\'s contracts give (run `npm run examples` when this fails)', async () => {
  // In a process of its own, as `npm run examples` runs: GraphQL Code Generator loads ESM-only
  // packages that jest's module system cannot.
  const { stdout } = await run(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(ROOT, 'examples/generate.ts'), '--print'], { cwd: ROOT, maxBuffer: 64 << 20 });
  const files = JSON.parse(stdout) as Record<string, string>;
  expect(Object.keys(files).sort()).toEqual(['examples/graphql-client/operations.ts', 'examples/typescript-client/api.d.ts']);
  for (const [file, text] of Object.entries(files)) expect({ file, text: fs.readFileSync(path.join(ROOT, file), 'utf8') }).toEqual({ file, text });
});

it.each(['typescript-client', 'graphql-client'])('examples/%s type-checks (tsc --noEmit, strict)', async (dir) => {
  const tsc = require.resolve('typescript/bin/tsc');
  const r = await run(process.execPath, [tsc, '-p', path.join(ROOT, 'examples', dir)], { cwd: ROOT }).catch((e) => e);
  expect({ code: r.code ?? 0, out: String(r.stdout) }).toEqual({ code: 0, out: '' });
}, 120_000);

it('the REST client (openapi-fetch) creates a customer, finds it in a filtered list, updates it with If-Match', async () => {
  const tenant = await createTenant(t);
  const lines = await example('examples/typescript-client/client.ts', tenant.key);
  const uuid = /^created Grace Hopper \(([0-9a-f-]{36})\), phone 217-555-0199$/.exec(lines[0])?.[1];
  expect(uuid).toBeDefined();
  expect(lines.slice(1)).toEqual([`listed 1: ${uuid}`, 'updated: is_vip=true; a second update with the old ETag answered 412']);
  const stored = await rest(t, tenant).get(`/customers/${uuid}`);
  expect(stored.body.data).toMatchObject({ first_name: 'Grace', last_name: 'Hopper', customer_type: 'Commercial', is_vip: true, notes: null });
}, 60_000);

it('the GraphQL client (typed documents) creates a customer, finds it and reads it by global id', async () => {
  const tenant = await createTenant(t);
  const lines = await example('examples/graphql-client/client.ts', tenant.key);
  const m = /^created Katherine Johnson \(([0-9a-f-]{36})\), id (\S+)$/.exec(lines[0]);
  expect(m).not.toBeNull();
  expect(Buffer.from(m![2], 'base64').toString()).toBe(`Customer:${m![1]}`);
  expect(lines.slice(1)).toEqual([`found 1: ${m![1]}`, 'node(id): Katherine Johnson']);
  const stored = await rest(t, tenant).get(`/customers/${m![1]}`);
  expect(stored.body.data).toMatchObject({ first_name: 'Katherine', phone: '757-555-0142', customer_type: 'Residential' });
}, 60_000);
