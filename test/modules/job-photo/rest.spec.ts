import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createTenant, rest, Tenant, TestApp, useTestApp } from '../../helpers/app';
import { JPEG, png, TEXT } from '../../helpers/images';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-photos-'));
const SECRET = 'test-photo-secret-0123456789';
const MAX = 20_000;
const t = useTestApp({ DATA_DIR: dataDir, PHOTO_URL_SECRET: SECRET, MAX_PHOTO_BYTES: String(MAX) });

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function job(t: TestApp, a: Tenant) {
  const c = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'L' })).body.data;
  return (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'Fix' })).body.data;
}

function upload(t: TestApp, a: Tenant, jobUuid: string) {
  return request(t.app).post(`/api/v1/jobs/${jobUuid}/photos`).set('Authorization', `Bearer ${a.key}`);
}

/** Every file under a directory (stored photos, staged uploads). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => path.join(d.parentPath, d.name));
}
const stored = () => filesUnder(path.join(dataDir, 'photos'));
const staged = () => filesUnder(path.join(dataDir, 'tmp'));

/** Fetches a photo_url through the app (it is absolute: keep its path and query). */
function fetchLink(t: TestApp, link: string) {
  const u = new URL(link);
  return request(t.app).get(u.pathname + u.search).buffer(true).parse((res, cb) => {
    const parts: Buffer[] = [];
    res.on('data', (d: Buffer) => parts.push(d));
    res.on('end', () => cb(null, Buffer.concat(parts)));
  });
}

describe('REST job photos', () => {
  beforeEach(() => fs.rmSync(path.join(dataDir, 'photos'), { recursive: true, force: true }));

  it('uploads several files at once, judging the type by the bytes, and serves them behind signed links', async () => {
    const a = await createTenant(t);
    const j = await job(t, a);
    const one = png(3, 3);
    const res = await upload(t, a, j.uuid)
      .field('photo_type', 'before')
      .field('taken_at', '2026-11-20T10:00:00-05:00')
      .attach('photos', one, { filename: '../../etc/passwd.png', contentType: 'text/plain' })
      .attach('photos', JPEG, { filename: 'b.jpeg', contentType: 'image/jpeg' })
      .attach('photo', png(4, 4), { filename: 'c.gif' });
    expect(res.status).toBe(200);
    const photos = res.body.data.photos;
    expect(photos).toHaveLength(3);
    expect(photos[0]).toMatchObject({ job_uuid: j.uuid, user_id: a.userId, photo_type: 'before', taken_at: '2026-11-20T15:00:00.000Z', file_name: 'passwd.png', file_size: one.length, mime_type: 'image/png', customer_email_sent: false, deleted_at: null });
    expect(photos[1]).toMatchObject({ mime_type: 'image/jpeg', file_name: 'b.jpeg' });
    expect(photos[2]).toMatchObject({ mime_type: 'image/png', file_name: 'c.gif' });
    expect(photos[0].photo_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/photo-files\/.+\.png\?expires=\d+&sig=/);
    // Storage names come from the server, never from the client.
    expect(stored().map((f) => path.basename(f))).not.toContain('passwd.png');
    expect(stored()).toHaveLength(3);
    expect(staged()).toEqual([]);
    const file = await fetchLink(t, photos[0].photo_url);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(file.body, one)).toBe(0);
    // No API key needed for the link, but one is needed for the API.
    expect((await request(t.app).get(`/api/v1/jobs/${j.uuid}/photos`)).status).toBe(401);
  });

  it('upload returns each photo as GET does, with the uploader embedded (docs/conventions.md)', async () => {
    const a = await createTenant(t);
    const j = await job(t, a);
    const res = await upload(t, a, j.uuid).attach('photos', png(), 'a.png').attach('photos', JPEG, 'b.jpg');
    expect(res.status).toBe(200);
    const got = await rest(t, a).get(`/jobs/${j.uuid}/photos/${res.body.data.photos[1].uuid}`);
    const { photo_url: _u, ...fields } = got.body.data;
    expect(res.body.data.photos[1]).toEqual({ ...fields, photo_url: expect.any(String) });
    for (const p of res.body.data.photos) expect(p.user).toEqual({ id: a.userId, first_name: expect.any(String), last_name: expect.any(String) });
    const doc = (await request(t.app).get('/api/v1/openapi.json')).body;
    const item = doc.paths['/api/v1/jobs/{job_uuid}/photos'].post.responses['200'].content['application/json'].schema.properties.data.properties.photos.items;
    const photo = doc.components.schemas[item.$ref.split('/').pop()];
    const user = doc.components.schemas[photo.properties.user.oneOf[0].$ref.split('/').pop()];
    expect(user.properties).toHaveProperty('first_name');
  });

  it('lists (filter photo_type) and gets with the uploader embedded; delete keeps the file', async () => {
    const a = await createTenant(t);
    const j = await job(t, a);
    const before = (await upload(t, a, j.uuid).field('photo_type', 'before').attach('file', png(), 'a.png')).body.data.photos[0];
    const after = (await upload(t, a, j.uuid).field('photo_type', 'after').attach('photos', JPEG, 'b.jpg')).body.data.photos[0];
    const dflt = (await upload(t, a, j.uuid).attach('photos', JPEG, 'c.jpg')).body.data.photos[0];
    expect(dflt).toMatchObject({ photo_type: 'during', taken_at: null });
    const list = await rest(t, a).get(`/jobs/${j.uuid}/photos`);
    expect(list.body.data.pagination).toEqual({ page: 1, limit: 50, total: 3, total_pages: 1 });
    expect(list.body.data.photos.map((p: { uuid: string }) => p.uuid)).toEqual([dflt.uuid, after.uuid, before.uuid]);
    expect(list.body.data.photos[0].user).toEqual({ id: a.userId, first_name: expect.any(String), last_name: expect.any(String) });
    const filtered = await rest(t, a).get(`/jobs/${j.uuid}/photos?photo_type=BEFORE,after`);
    expect(filtered.body.data.photos.map((p: { uuid: string }) => p.uuid)).toEqual([after.uuid, before.uuid]);
    expect((await rest(t, a).get(`/jobs/${j.uuid}/photos?photo_type=sideways`)).status).toBe(400);
    const got = await rest(t, a).get(`/jobs/${j.uuid}/photos/${before.uuid}`);
    expect(got.body.data).toMatchObject({ uuid: before.uuid, photo_type: 'before', user: { id: a.userId } });
    const del = await rest(t, a).delete(`/jobs/${j.uuid}/photos/${before.uuid}`);
    expect(del.body).toEqual({ success: true, data: { message: 'Photo deleted' } });
    expect((await rest(t, a).get(`/jobs/${j.uuid}/photos/${before.uuid}`)).status).toBe(404);
    expect((await rest(t, a).delete(`/jobs/${j.uuid}/photos/${before.uuid}`)).status).toBe(404);
    expect((await rest(t, a).get(`/jobs/${j.uuid}/photos`)).body.data.pagination.total).toBe(2);
    const all = (await rest(t, a).get(`/jobs/${j.uuid}/photos?include_deleted=true`)).body.data.photos;
    expect(all).toHaveLength(3);
    expect(stored()).toHaveLength(3);
    expect((await fetchLink(t, all.find((p: { uuid: string }) => p.uuid === before.uuid).photo_url)).status).toBe(200);
  });

  it.each([
    ['a disguised text file', (r: request.Test) => r.attach('photos', png(), 'ok.png').attach('photos', TEXT, { filename: 'x.png', contentType: 'image/png' }), 'photos'],
    ['an oversized file', (r: request.Test) => r.attach('photos', JPEG, 'ok.jpg').attach('photos', png(200, 200), 'big.png'), 'photos'],
    ['an empty file', (r: request.Test) => r.attach('photos', png(), 'ok.png').attach('photo', Buffer.alloc(0), 'empty.png'), 'photo'],
    ['a wrong photo_type', (r: request.Test) => r.attach('photos', png(), 'ok.png').field('photo_type', 'Before'), 'photo_type'],
    ['taken_at without an offset', (r: request.Test) => r.attach('photos', png(), 'ok.png').field('taken_at', '2026-11-20T10:00:00'), 'taken_at'],
    ['an unknown field', (r: request.Test) => r.attach('photos', png(), 'ok.png').field('caption', 'hi'), 'caption'],
    ['a file in an unknown field', (r: request.Test) => r.attach('image', png(), 'ok.png'), 'image'],
    ['no file', (r: request.Test) => r.field('photo_type', 'before'), 'photos'],
    ['21 files', (r: request.Test) => Array.from({ length: 21 }).reduce<request.Test>((q, _, i) => q.attach('photos', JPEG, `p${i}.jpg`), r), 'photos'],
  ])('refuses %s with 400 and stores nothing of the request', async (_name, build, field) => {
    expect(png(200, 200).length).toBeGreaterThan(MAX);
    const a = await createTenant(t);
    const j = await job(t, a);
    const res = await build(upload(t, a, j.uuid));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(stored()).toEqual([]);
    expect(staged()).toEqual([]);
    expect((await rest(t, a).get(`/jobs/${j.uuid}/photos?include_deleted=true`)).body.data.photos).toEqual([]);
  });

  it('refuses a JSON body and needs the job_photos add-on (403, nothing stored)', async () => {
    const a = await createTenant(t);
    const j = await job(t, a);
    expect((await rest(t, a).post(`/jobs/${j.uuid}/photos`, { photo_type: 'before' })).status).toBe(400);
    const plain = await createTenant(t, { name: 'No addons', addons: [] });
    const pj = await job(t, plain);
    const res = await upload(t, plain, pj.uuid).attach('photos', png(), 'a.png');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('ADDON_REQUIRED');
    expect(stored()).toEqual([]);
    // Reading does not need the add-on.
    expect((await rest(t, plain).get(`/jobs/${pj.uuid}/photos`)).status).toBe(200);
  });

  it('keeps photos in their job and company: 404 for a foreign, deleted or missing job or photo', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Rival' });
    const ja = await job(t, a);
    const ja2 = await job(t, a);
    const jb = await job(t, b);
    const pa = (await upload(t, a, ja.uuid).attach('photos', png(), 'a.png')).body.data.photos[0];
    const foreign = await upload(t, b, ja.uuid).attach('photos', png(), 'a.png');
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expect(stored()).toHaveLength(1);
    expect((await rest(t, b).get(`/jobs/${ja.uuid}/photos`)).status).toBe(404);
    expect((await rest(t, b).get(`/jobs/${ja.uuid}/photos/${pa.uuid}`)).status).toBe(404);
    expect((await rest(t, b).get(`/jobs/${jb.uuid}/photos/${pa.uuid}`)).status).toBe(404);
    expect((await rest(t, b).delete(`/jobs/${jb.uuid}/photos/${pa.uuid}`)).status).toBe(404);
    expect((await rest(t, a).get(`/jobs/${ja2.uuid}/photos/${pa.uuid}`)).status).toBe(404);
    expect((await rest(t, a).get(`/jobs/00000000-0000-4000-8000-000000000000/photos`)).status).toBe(404);
    expect((await rest(t, a).get(`/jobs/not-a-uuid/photos/${pa.uuid}`)).status).toBe(404);
    expect((await rest(t, a).get(`/jobs/${ja.uuid}/photos/not-a-uuid`)).status).toBe(404);
    await rest(t, a).delete(`/jobs/${ja.uuid}`);
    expect((await rest(t, a).get(`/jobs/${ja.uuid}/photos`)).status).toBe(404);
    expect((await upload(t, a, ja.uuid).attach('photos', png(), 'a.png')).status).toBe(404);
  });

  it('refuses tampered, re-targeted, expired and unsigned links with 404', async () => {
    const a = await createTenant(t);
    const j = await job(t, a);
    const [p1, p2] = (await upload(t, a, j.uuid).attach('photos', png(), 'a.png').attach('photos', JPEG, 'b.jpg')).body.data.photos;
    const u1 = new URL(p1.photo_url);
    const u2 = new URL(p2.photo_url);
    expect((await fetchLink(t, p1.photo_url)).status).toBe(200);
    const sig = u1.searchParams.get('sig')!;
    const flipped = sig.slice(0, -1) + (sig.endsWith('A') ? 'B' : 'A');
    const cases = [
      `${u1.pathname}?expires=${u1.searchParams.get('expires')}&sig=${flipped}`,
      `${u1.pathname}?expires=${Number(u1.searchParams.get('expires')) + 1000}&sig=${sig}`,
      `${u2.pathname}?expires=${u1.searchParams.get('expires')}&sig=${sig}`,
      u1.pathname,
      `${u1.pathname}/../../x?expires=1&sig=x`,
    ];
    for (const c of cases) {
      const res = await request(t.app).get(c);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    // A genuine signature whose time has passed.
    const key = u1.pathname.replace('/api/v1/photo-files/', '');
    const past = Math.floor(Date.now() / 1000) - 5;
    const expiredSig = createHmac('sha256', SECRET).update(`${key}\n${past}`).digest('base64url');
    expect((await request(t.app).get(`${u1.pathname}?expires=${past}&sig=${expiredSig}`)).status).toBe(404);
    const future = past + 3600;
    const goodSig = createHmac('sha256', SECRET).update(`${key}\n${future}`).digest('base64url');
    expect((await request(t.app).get(`${u1.pathname}?expires=${future}&sig=${goodSig}`)).status).toBe(200);
  });

  it('documents the multipart fields in OpenAPI', async () => {
    const doc = (await request(t.app).get('/api/v1/openapi.json')).body;
    const body = doc.paths['/api/v1/jobs/{job_uuid}/photos'].post.requestBody.content['multipart/form-data'].schema;
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['photos', 'photo', 'file', 'photo_type', 'taken_at']));
    expect(body.properties.photos.items.format).toBe('binary');
  });
});
