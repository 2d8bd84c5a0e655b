import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createTenant, rest, useTestApp } from '../helpers/app';

// s3rver ships no type declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver');
import { JPEG, png, TEXT } from '../helpers/images';

// An S3-compatible server started by the test itself, on a free loopback port.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-s3-'));
const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(dir, 's3'), configureBuckets: [{ name: 'photos' }] });
const env: Record<string, string> = { DATA_DIR: path.join(dir, 'data'), S3_BUCKET: 'photos', S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_FORCE_PATH_STYLE: 'true', MAX_PHOTO_BYTES: '20000' };
let client: S3Client;

beforeAll(async () => {
  const { port } = (await server.run()) as AddressInfo;
  env.S3_ENDPOINT = `http://127.0.0.1:${port}`;
  client = new S3Client({ region: 'us-east-1', endpoint: env.S3_ENDPOINT, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, responseChecksumValidation: 'WHEN_REQUIRED' });
});
// Registered after the beforeAll above, so the app sees the endpoint.
const t = useTestApp(env);
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function keys(): Promise<string[]> {
  const out = await client.send(new ListObjectsV2Command({ Bucket: 'photos' }));
  return (out.Contents ?? []).map((o) => o.Key!);
}

describe('S3 photo storage', () => {
  it('stores uploads in the bucket and links to them with presigned URLs; refused requests store nothing', async () => {
    const a = await createTenant(t);
    const c = (await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B' })).body.data;
    const j = (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'T' })).body.data;
    const image = png(5, 5);
    const res = await request(t.app).post(`/api/v1/jobs/${j.uuid}/photos`).set('Authorization', `Bearer ${a.key}`).attach('photos', image, 'a.png').attach('photos', JPEG, 'b.jpg');
    expect(res.status).toBe(200);
    const [p1] = res.body.data.photos;
    const stored = await keys();
    expect(stored).toHaveLength(2);
    expect(stored.every((k) => k.startsWith(`${a.companyUuid}/${j.uuid}/`))).toBe(true);
    const obj = await client.send(new GetObjectCommand({ Bucket: 'photos', Key: stored.find((k) => k.endsWith('.png')) }));
    expect(Buffer.compare(Buffer.from(await obj.Body!.transformToByteArray()), image)).toBe(0);
    expect(obj.ContentType).toBe('image/png');
    // photo_url is a presigned GET on the store itself.
    const url = new URL(p1.photo_url);
    expect(url.origin).toBe(env.S3_ENDPOINT);
    expect(url.searchParams.get('X-Amz-Signature')).toBeTruthy();
    const fetched = await fetch(p1.photo_url);
    expect(fetched.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await fetched.arrayBuffer()), image)).toBe(0);

    for (const bad of [
      (r: request.Test) => r.attach('photos', JPEG, 'ok.jpg').attach('photos', TEXT, 'x.png'),
      (r: request.Test) => r.attach('photos', JPEG, 'ok.jpg').attach('photos', png(200, 200), 'big.png'),
      (r: request.Test) => r.attach('photos', JPEG, 'ok.jpg').field('photo_type', 'nope'),
    ]) {
      const refused = await bad(request(t.app).post(`/api/v1/jobs/${j.uuid}/photos`).set('Authorization', `Bearer ${a.key}`));
      expect(refused.status).toBe(400);
    }
    expect(await keys()).toHaveLength(2);
    // Soft delete keeps the object.
    await rest(t, a).delete(`/jobs/${j.uuid}/photos/${p1.uuid}`);
    expect(await keys()).toHaveLength(2);
    const got = await rest(t, a).get(`/jobs/${j.uuid}/photos?include_deleted=true`);
    expect(got.body.data.photos.every((p: { photo_url: string }) => p.photo_url.startsWith(env.S3_ENDPOINT))).toBe(true);
  });
});
