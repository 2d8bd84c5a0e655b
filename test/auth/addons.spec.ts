import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { setAddons } from '../../src/modules/company/company.admin';
import { createTenant, gql, rest, Tenant, TestApp, useTestApp } from '../helpers/app';
import { png } from '../helpers/images';
import { keyWith } from '../helpers/keys';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-addons-'));
const t = useTestApp({ DATA_DIR: dataDir });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const NUMBERING = { invoice: { prefix: 'F-', padding: 3 } };
const UPDATE_NUMBERING = 'mutation { updateNumbering(input: { invoice: { prefix: "F-", padding: 3 } }) { invoice { prefix } } }';
const UPLOAD = 'mutation($jobUuid: UUID!, $files: [Upload!]!) { uploadJobPhotos(jobUuid: $jobUuid, files: $files) { photos { uuid } } }';

function uploadRest(t: TestApp, key: string, jobUuid: string) {
  return request(t.app).post(`/api/v1/jobs/${jobUuid}/photos`).set('Authorization', `Bearer ${key}`).attach('photos', png(), 'a.png');
}

function uploadGql(t: TestApp, key: string, jobUuid: string) {
  return request(t.app)
    .post('/graphql')
    .set('Authorization', `Bearer ${key}`)
    .set('apollo-require-preflight', 'true')
    .field('operations', JSON.stringify({ query: UPLOAD, variables: { jobUuid, files: [null] } }))
    .field('map', JSON.stringify({ 0: ['variables.files.0'] }))
    .attach('0', png(), 'a.png');
}

async function job(a: Tenant) {
  const c = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'L' })).body.data;
  return (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'Fix' })).body.data as { uuid: string };
}

const REFUSED = {
  custom_numbering: { code: 'ADDON_REQUIRED', message: 'This operation requires the "custom_numbering" add-on' },
  job_photos: { code: 'ADDON_REQUIRED', message: 'This operation requires the "job_photos" add-on' },
};

describe('add-ons', () => {
  it('a company without add-ons: 403 ADDON_REQUIRED naming the add-on, on both surfaces', async () => {
    const a = await createTenant(t, { addons: [] });
    const j = await job(a);

    const put = await rest(t, a).put('/numbering', NUMBERING);
    expect(put.status).toBe(403);
    expect(put.body).toEqual({ success: false, data: null, error: REFUSED.custom_numbering });
    const g = await gql(t, a, UPDATE_NUMBERING);
    expect(g.errors?.[0]).toMatchObject({ message: REFUSED.custom_numbering.message, extensions: { code: 'ADDON_REQUIRED' } });

    const up = await uploadRest(t, a.key, j.uuid);
    expect(up.status).toBe(403);
    expect(up.body).toEqual({ success: false, data: null, error: REFUSED.job_photos });
    const gu = await uploadGql(t, a.key, j.uuid);
    expect(gu.body.errors[0]).toMatchObject({ message: REFUSED.job_photos.message, extensions: { code: 'ADDON_REQUIRED' } });

    // The add-on is checked before the body: an invalid body is still a 403.
    const badPut = await rest(t, a).put('/numbering', { invoice: { padding: 99 }, bogus: 1 });
    expect(badPut.status).toBe(403);
    const badG = await gql(t, a, 'mutation { updateNumbering(input: { invoice: { padding: 99 } }) { invoice { prefix } } }');
    expect(badG.errors?.[0].extensions.code).toBe('ADDON_REQUIRED');

    // Reading needs no add-on.
    expect((await rest(t, a).get('/numbering')).status).toBe(200);
    expect((await rest(t, a).get(`/jobs/${j.uuid}/photos`)).status).toBe(200);
    expect((await rest(t, a).get('/numbering')).body.data.invoice.prefix).toBe('INV-');
  });

  it('each add-on opens only its own operations', async () => {
    const a = await createTenant(t, { addons: ['job_photos'] });
    const j = await job(a);
    expect((await rest(t, a).put('/numbering', NUMBERING)).body.error).toEqual(REFUSED.custom_numbering);
    expect((await uploadRest(t, a.key, j.uuid)).status).toBe(200);
    expect((await uploadGql(t, a.key, j.uuid)).body.data.uploadJobPhotos.photos).toHaveLength(1);

    const b = await createTenant(t, { name: 'B', addons: ['custom_numbering'] });
    const jb = await job(b);
    expect((await rest(t, b).put('/numbering', NUMBERING)).status).toBe(200);
    expect((await gql(t, b, UPDATE_NUMBERING)).data.updateNumbering.invoice.prefix).toBe('F-');
    expect((await uploadRest(t, b.key, jb.uuid)).body.error).toEqual(REFUSED.job_photos);
  });

  it('new companies have both add-ons by default', async () => {
    const a = await createTenant(t);
    const j = await job(a);
    expect((await rest(t, a).put('/numbering', NUMBERING)).status).toBe(200);
    expect((await uploadRest(t, a.key, j.uuid)).status).toBe(200);
  });

  it('set-addons takes effect at once for existing keys', async () => {
    const a = await createTenant(t);
    expect((await rest(t, a).put('/numbering', NUMBERING)).status).toBe(200);
    await setAddons(t.orm.em.fork(), a.companyUuid, []);
    expect((await rest(t, a).put('/numbering', NUMBERING)).body.error).toEqual(REFUSED.custom_numbering);
    await setAddons(t.orm.em.fork(), a.companyUuid, ['custom_numbering']);
    expect((await gql(t, a, UPDATE_NUMBERING)).errors).toBeUndefined();
  });

  it('a request refused for an add-on has passed the key and IP checks, so it counts toward the usage limit', async () => {
    const a = await createTenant(t, { addons: [] });
    const k = await keyWith(t, a, { usageLimit: 2, usagePeriod: 'hour' });
    const first = await rest(t, k.key).put('/numbering', NUMBERING);
    expect(first.status).toBe(403);
    expect(first.body.error.code).toBe('ADDON_REQUIRED');
    expect(first.headers['ratelimit-remaining']).toBe('1');
    expect((await gql(t, k.key, UPDATE_NUMBERING)).errors?.[0].extensions.code).toBe('ADDON_REQUIRED');
    const third = await rest(t, k.key).put('/numbering', NUMBERING);
    expect(third.body.error.code).toBe('USAGE_LIMIT_EXCEEDED');
  });
});
