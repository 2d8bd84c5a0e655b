import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createTenant, gql, rest, Tenant, TestApp, useTestApp } from '../../helpers/app';
import { JPEG, png, TEXT } from '../../helpers/images';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-gqlphotos-'));
const MAX = 20_000;
const t = useTestApp({ DATA_DIR: dataDir, MAX_PHOTO_BYTES: String(MAX), PUBLIC_URL: 'https://crm.example.com/' });

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const UPLOAD = `mutation($jobUuid: UUID!, $files: [Upload!]!, $photoType: JobPhotoType, $takenAt: DateTime) {
  uploadJobPhotos(jobUuid: $jobUuid, files: $files, photoType: $photoType, takenAt: $takenAt) {
    photos { uuid jobUuid userId photoUrl photoType fileName fileSize mimeType takenAt customerEmailSent user { id } job { uuid } }
  }
}`;

/** A GraphQL multipart request (https://github.com/jaydenseric/graphql-multipart-request-spec). */
function uploadGql(t: TestApp, a: Tenant, vars: Record<string, unknown>, files: Array<[Buffer, string]>) {
  const map = Object.fromEntries(files.map((_, i) => [String(i), [`variables.files.${i}`]]));
  let r = request(t.app)
    .post('/graphql')
    .set('Authorization', `Bearer ${a.key}`)
    .set('apollo-require-preflight', 'true')
    .field('operations', JSON.stringify({ query: UPLOAD, variables: { ...vars, files: files.map(() => null) } }))
    .field('map', JSON.stringify(map));
  files.forEach(([buf, name], i) => (r = r.attach(String(i), buf, name)));
  return r;
}

async function job(t: TestApp, a: Tenant) {
  const c = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'L' })).body.data;
  return (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'Fix' })).body.data;
}

const stored = () => (fs.existsSync(path.join(dataDir, 'photos')) ? fs.readdirSync(path.join(dataDir, 'photos'), { recursive: true, withFileTypes: true }).filter((d) => d.isFile()) : []);

describe('GraphQL job photos', () => {
  beforeEach(() => fs.rmSync(path.join(dataDir, 'photos'), { recursive: true, force: true }));

  it('uploads several files, lists, gets, shows them on Job.photos and deletes', async () => {
    const a = await createTenant(t);
    const j = await job(t, a);
    const res = await uploadGql(t, a, { jobUuid: j.uuid, photoType: 'AFTER', takenAt: '2026-11-20T10:00:00Z' }, [[png(), 'a.png'], [JPEG, 'b.jpg']]);
    expect(res.body.errors).toBeUndefined();
    const photos = res.body.data.uploadJobPhotos.photos;
    expect(photos).toHaveLength(2);
    expect(photos[0]).toMatchObject({ jobUuid: j.uuid, userId: a.userId, photoType: 'AFTER', fileName: 'a.png', mimeType: 'image/png', takenAt: '2026-11-20T10:00:00.000Z', customerEmailSent: false, user: { id: a.userId }, job: { uuid: j.uuid } });
    // PUBLIC_URL decides the links' origin.
    expect(photos[1].photoUrl).toMatch(/^https:\/\/crm\.example\.com\/api\/v1\/photo-files\/.+\.jpg\?expires=\d+&sig=/);
    expect(stored()).toHaveLength(2);
    const list = await gql(t, a, `query($j: UUID!) { jobPhotos(jobUuid: $j, photoType: [AFTER]) { items { uuid } pagination { total } } }`, { j: j.uuid });
    expect(list.data.jobPhotos.pagination.total).toBe(2);
    const one = await gql(t, a, `query($j: UUID!, $u: UUID!) { jobPhoto(jobUuid: $j, uuid: $u) { uuid photoUrl user { id } } }`, { j: j.uuid, u: photos[0].uuid });
    expect(one.data.jobPhoto).toMatchObject({ uuid: photos[0].uuid, user: { id: a.userId } });
    const onJob = await gql(t, a, `query($j: UUID!) { job(uuid: $j) { photos { uuid photoUrl } first: photos(limit: 1) { uuid } } }`, { j: j.uuid });
    expect(onJob.data.job.photos.map((p: { uuid: string }) => p.uuid).sort()).toEqual(photos.map((p: { uuid: string }) => p.uuid).sort());
    expect(onJob.data.job.first).toHaveLength(1);
    expect(onJob.data.job.photos[0].photoUrl).toMatch(/^https:\/\/crm\.example\.com\//);
    const del = await gql(t, a, `mutation($j: UUID!, $u: UUID!) { deleteJobPhoto(jobUuid: $j, uuid: $u) { message } }`, { j: j.uuid, u: photos[0].uuid });
    expect(del.data.deleteJobPhoto).toEqual({ message: 'Photo deleted' });
    expect((await gql(t, a, `query($j: UUID!) { job(uuid: $j) { photos { uuid } } }`, { j: j.uuid })).data.job.photos).toEqual([{ uuid: photos[1].uuid }]);
    expect(stored()).toHaveLength(2);
  });

  it.each([
    ['a disguised text file', {}, [[png(), 'ok.png'], [TEXT, 'x.jpg']], 'files[1]'],
    ['an oversized file', {}, [[JPEG, 'ok.jpg'], [png(200, 200), 'big.png']], 'files[1]'],
    ['a bad takenAt', { takenAt: '2026-11-20T10:00:00' }, [[png(), 'ok.png']], null],
    ['no file', {}, [], 'files'],
  ] as Array<[string, object, Array<[Buffer, string]>, string | null]>)('refuses %s and stores nothing', async (_n, vars, files, field) => {
    const a = await createTenant(t);
    const j = await job(t, a);
    const res = await uploadGql(t, a, { jobUuid: j.uuid, ...vars }, files);
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    if (field) expect(res.body.errors[0].extensions.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(stored()).toEqual([]);
    expect((await gql(t, a, `query($j: UUID!) { jobPhotos(jobUuid: $j, includeDeleted: true) { items { uuid } } }`, { j: j.uuid })).data.jobPhotos.items).toEqual([]);
  });

  it('refuses a wrong photoType', async () => {
    const a = await createTenant(t);
    const j = await job(t, a);
    const res = await uploadGql(t, a, { jobUuid: j.uuid, photoType: 'SIDEWAYS' }, [[png(), 'a.png']]);
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(stored()).toEqual([]);
  });

  it('needs the add-on, and keeps jobs and photos of other companies out of reach', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Rival' });
    const plain = await createTenant(t, { name: 'Plain', addons: [] });
    const ja = await job(t, a);
    const jp = await job(t, plain);
    const denied = await uploadGql(t, plain, { jobUuid: jp.uuid }, [[png(), 'a.png']]);
    expect(denied.body.errors[0].extensions.code).toBe('ADDON_REQUIRED');
    const pa = (await uploadGql(t, a, { jobUuid: ja.uuid }, [[png(), 'a.png']])).body.data.uploadJobPhotos.photos[0];
    const foreign = await uploadGql(t, b, { jobUuid: ja.uuid }, [[png(), 'a.png']]);
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(stored()).toHaveLength(1);
    for (const [q, v] of [
      [`query($j: UUID!) { jobPhotos(jobUuid: $j) { items { uuid } } }`, { j: ja.uuid }],
      [`query($j: UUID!, $u: UUID!) { jobPhoto(jobUuid: $j, uuid: $u) { uuid } }`, { j: ja.uuid, u: pa.uuid }],
      [`mutation($j: UUID!, $u: UUID!) { deleteJobPhoto(jobUuid: $j, uuid: $u) { message } }`, { j: ja.uuid, u: pa.uuid }],
    ] as Array<[string, object]>) {
      expect((await gql(t, b, q, v)).errors![0].extensions.code).toBe('NOT_FOUND');
    }
  });

  it('refuses a multipart request without the CSRF preflight header', async () => {
    const a = await createTenant(t);
    const j = await job(t, a);
    const res = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${a.key}`)
      .field('operations', JSON.stringify({ query: UPLOAD, variables: { jobUuid: j.uuid, files: [null] } }))
      .field('map', JSON.stringify({ 0: ['variables.files.0'] }))
      .attach('0', png(), 'a.png');
    expect(res.status).toBe(400);
    expect(stored()).toEqual([]);
  });
});
