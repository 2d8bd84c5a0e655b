import net from 'node:net';
import { createTenant, Tenant, useTestApp } from '../helpers/app';
import { ServerProcess, startServer } from '../helpers/server-process';

// What a client can send over the wire cannot stop the server (docs/security.md): after each
// hostile request, the process is alive and answers the next normal request at once.
const t = useTestApp();
let server: ServerProcess;
let tenant: Tenant;

beforeAll(async () => {
  server = await startServer({ DATABASE_URL: t.url, REQUEST_TIMEOUT_MS: '3000', HEADERS_TIMEOUT_MS: '2000', KEEP_ALIVE_TIMEOUT_MS: '1000' });
});
afterAll(async () => {
  server?.kill('SIGTERM');
  await server?.exited;
});
beforeEach(async () => {
  tenant = await createTenant(t, { addons: ['job_photos'] });
});

const url = (p: string) => `http://127.0.0.1:${server.port}${p}`;
const auth = () => ({ Authorization: `Bearer ${tenant.key}` });

/** The next normal request is answered, and within a second (the process did not die or stall). */
async function stillServing(): Promise<void> {
  const res = await fetch(url('/api/v1/companies/me'), { headers: auth(), signal: AbortSignal.timeout(1000) });
  expect(res.status).toBe(200);
  expect(server.proc.exitCode).toBeNull();
}

/** Sends raw bytes and returns what came back (status line and body), or '' when the socket closed silently. */
function raw(bytes: string | Buffer, o: { halfClose?: boolean } = {}, waitMs = 3000): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(server.port, '127.0.0.1');
    let out = '';
    socket.on('data', (d) => (out += d.toString('latin1')));
    socket.on('error', () => resolve(out));
    socket.on('close', () => resolve(out));
    socket.write(bytes);
    // A client that gives up before sending what it announced half-closes its side.
    if (o.halfClose) socket.end();
    setTimeout(() => {
      socket.destroy();
      resolve(out);
    }, waitMs);
  });
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

function truncatedMultipart(path: string, parts: string): Buffer {
  const boundary = 'XyZboundary';
  const body = Buffer.concat([Buffer.from(parts.replace(/BOUNDARY/g, boundary)), PNG]);
  const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tenant.key}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), body]);
}

async function job(): Promise<string> {
  const customer: any = await (await fetch(url('/api/v1/customers'), { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' }, body: JSON.stringify({ first_name: 'Ada', last_name: 'L' }) })).json();
  const created: any = await (await fetch(url('/api/v1/jobs'), { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' }, body: JSON.stringify({ customer_uuid: customer.data.uuid, title: 'Leak' }) })).json();
  return created.data.uuid;
}

it('a REST upload that ends inside a file part: 400, and the server lives', async () => {
  const uuid = await job();
  const answer = await raw(truncatedMultipart(`/api/v1/jobs/${uuid}/photos`, '--BOUNDARY\r\nContent-Disposition: form-data; name="photos"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n'));
  expect(answer).toMatch(/^HTTP\/1\.1 400/);
  expect(answer).toContain('"VALIDATION_ERROR"');
  await stillServing();
});

it('a GraphQL upload that ends inside a file part: 400, and the server lives', async () => {
  const uuid = await job();
  const operations = JSON.stringify({ query: `mutation($f: [Upload!]!) { uploadJobPhotos(jobUuid: "${uuid}", files: $f) { photos { uuid } } }`, variables: { f: [null] } });
  const parts =
    `--BOUNDARY\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${operations}\r\n` +
    `--BOUNDARY\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.f.0"]}\r\n` +
    '--BOUNDARY\r\nContent-Disposition: form-data; name="0"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n';
  const answer = await raw(truncatedMultipart('/graphql', parts).toString('latin1').replace('Connection: close', 'Connection: close\r\napollo-require-preflight: 1'));
  expect(answer).toMatch(/^HTTP\/1\.1 400/);
  expect(answer).not.toContain('INTERNAL');
  await stillServing();
});

it('a wrong Content-Encoding, a body over the limit, a lying Content-Length: 400s, and the server lives', async () => {
  for (const encoding of ['gzip', 'br', 'deflate', 'x-unknown']) {
    const res = await fetch(url('/api/v1/customers'), { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json', 'Content-Encoding': encoding }, body: '{"first_name":"A","last_name":"B"}' });
    expect(res.status).toBe(400);
  }
  const big = await fetch(url('/api/v1/customers'), { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' }, body: `{"notes":"${'x'.repeat(1_100_000)}"}` });
  expect(big.status).toBe(400);
  const answer = await raw(`POST /api/v1/customers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tenant.key}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"first_name":`, { halfClose: true });
  // The client closed before sending what it announced: nothing to answer, nothing broken.
  expect(answer).not.toMatch(/HTTP\/1\.1 5\d\d/);
  await stillServing();
});

it('200 idle sockets and a slow header do not pin the server', async () => {
  const sockets = await Promise.all(
    Array.from({ length: 200 }, () => new Promise<net.Socket>((resolve) => {
      const s = net.connect(server.port, '127.0.0.1', () => resolve(s));
      s.on('error', () => undefined);
    })),
  );
  // A client that starts a request and never finishes its headers.
  sockets[0].write('GET /api/v1/companies/me HTTP/1.1\r\nHost: x\r\n');
  await stillServing();
  // The server closes what it was never sent (headers timeout; idle sockets after the request timeout).
  const closed = await new Promise<boolean>((resolve) => {
    sockets[0].on('close', () => resolve(true));
    setTimeout(() => resolve(false), 10_000);
  });
  expect(closed).toBe(true);
  for (const s of sockets) s.destroy();
  await stillServing();
});

it('an alias flood and a repeated-field flood are refused, and the server lives', async () => {
  const floods = [
    `{ ${Array.from({ length: 2000 }, (_, i) => `a${i}: previewEstimate(input: { templateUuid: "00000000-0000-4000-8000-000000000000" }) { preview { totalAmount } }`).join(' ')} }`,
    `{ ${Array.from({ length: 2500 }, (_, i) => `a${i}: numbering { invoice { nextNumber } }`).join(' ')} }`,
    `{ company { ${'name '.repeat(20_000)} } }`,
    `{ ${Array.from({ length: 5000 }, (_, i) => `a${i}: __typename`).join(' ')} }`,
  ];
  for (const query of floods) {
    const res = await fetch(url('/graphql'), { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' }, body: JSON.stringify({ query }) });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: Array<{ extensions: { code: string } }> };
    expect(body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    await stillServing();
  }
});
