import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createTenant, gql, rest, Tenant, useTestApp } from '../helpers/app';
import { makeInvoice, pay } from '../helpers/billing';
import { makeWorld, Resource, RESOURCES, World } from '../helpers/sync-resources';

// Restore on every soft-deletable resource, both surfaces (docs/conventions.md, Restore), from the
// table of resources; then the rules of particular resources (payments, locations, parents).

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-restore-'));
const t = useTestApp({ DATA_DIR: dataDir, PHOTO_URL_SECRET: 'test-photo-secret-0123456789' });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const world = () => makeWorld(t);

const total = async (w: World, r: Resource, tenant: Tenant | string = w.tenant) => (await rest(t, tenant).get(r.path(w))).body.data.pagination.total as number;
const gqlTotal = async (w: World, r: Resource) => (await gql(t, w.tenant, `{ ${r.gql}(${r.gqlArgs?.(w) ?? ''}limit: 1) { pagination { total } } }`)).data[r.gql].pagination.total as number;
const restoreGql = (w: World, r: Resource, uuid: string, tenant: Tenant | string = w.tenant) =>
  gql(t, tenant, `mutation { ${r.restore}(${r.restoreArgs?.(w) ?? ''}uuid: "${uuid}") { uuid deletedAt updatedAt } }`);

/** A GET body without what changes between two reads (a fresh signed link, updated_at). */
const stable = (data: Record<string, unknown>) => ({ ...data, photo_url: undefined, updated_at: undefined });

const deletable = RESOURCES.filter((r) => r.one);

describe.each(deletable.map((r) => [r.name, r] as const))('restore %s', (_, r) => {
  it('brings a deleted record back on both surfaces: in GET, lists and counts; a live one is 400', async () => {
    const w = await world();
    const uuid = await r.make(w, 0);
    await r.make(w, 1);
    const before = (await rest(t, w.tenant).get(r.one!(w, uuid))).body.data;
    const live = await total(w, r);
    expect((await rest(t, w.tenant).delete(r.one!(w, uuid))).status).toBe(200);
    expect(await total(w, r)).toBe(live - 1);
    expect((await rest(t, w.tenant).get(r.one!(w, uuid))).status).toBe(404);

    const res = await rest(t, w.tenant).post(`${r.one!(w, uuid)}/restore`);
    expect(res.status).toBe(200);
    const got = (await rest(t, w.tenant).get(r.one!(w, uuid))).body.data;
    // The same shape as GET, and the record as it was (updated_at moves on: a change to sync).
    expect(stable(res.body.data)).toEqual(stable(got));
    expect(stable(got)).toEqual(stable(before));
    expect(got.deleted_at).toBeNull();
    expect(Date.parse(got.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
    expect(await total(w, r)).toBe(live);
    const again = await rest(t, w.tenant).post(`${r.one!(w, uuid)}/restore`);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('VALIDATION_ERROR');

    // GraphQL: the same, through restore<Resource>.
    await rest(t, w.tenant).delete(r.one!(w, uuid));
    expect(await gqlTotal(w, r)).toBe(live - 1);
    const g = await restoreGql(w, r, uuid);
    expect(g.errors).toBeUndefined();
    expect(g.data[r.restore!]).toMatchObject({ uuid, deletedAt: null });
    expect(await gqlTotal(w, r)).toBe(live);
    const gAgain = await restoreGql(w, r, uuid);
    expect(gAgain.errors![0].extensions.code).toBe('VALIDATION_ERROR');
  });

  it("is 404 for another company's record, an unknown uuid and a malformed one", async () => {
    const w = await world();
    const uuid = await r.make(w, 0);
    await rest(t, w.tenant).delete(r.one!(w, uuid));
    const other = await createTenant(t, { name: 'Other', addons: ['job_photos'] });
    // Another company's key, with the owner's path: the record is not there for it.
    expect((await rest(t, other).post(`${r.one!(w, uuid)}/restore`)).status).toBe(404);
    expect((await restoreGql(w, r, uuid, other.key)).errors![0].extensions.code).toBe('NOT_FOUND');
    expect((await rest(t, w.tenant).post(`${r.one!(w, randomUUID())}/restore`)).status).toBe(404);
    expect((await rest(t, w.tenant).post(`${r.one!(w, 'not-a-uuid')}/restore`)).status).toBe(404);
    expect((await restoreGql(w, r, randomUUID())).errors![0].extensions.code).toBe('NOT_FOUND');
    // Still deleted.
    expect((await rest(t, w.tenant).get(r.one!(w, uuid))).status).toBe(404);
  });
});

describe('restore rules', () => {
  it('a restored payment counts on its invoice again: balance, status and the job follow', async () => {
    const w = await world();
    const invoice = await makeInvoice(t, w.tenant);
    const payment = (await pay(t, w.tenant, invoice.uuid, 100)).body.data;
    await rest(t, w.tenant).delete(`/payments/${payment.uuid}`);
    let inv = (await rest(t, w.tenant).get(`/invoices/${invoice.uuid}`)).body.data;
    expect(inv).toMatchObject({ paid_amount: 0, balance_amount: 100, status: 'Pending' });
    expect((await rest(t, w.tenant).get(`/jobs/${invoice.job_uuid}`)).body.data.paid_at).toBeNull();
    const res = await rest(t, w.tenant).post(`/payments/${payment.uuid}/restore`);
    expect(res.status).toBe(200);
    expect(res.body.data.invoice).toMatchObject({ uuid: invoice.uuid });
    inv = (await rest(t, w.tenant).get(`/invoices/${invoice.uuid}`)).body.data;
    expect(inv).toMatchObject({ paid_amount: 100, balance_amount: 0, status: 'Paid' });
    expect((await rest(t, w.tenant).get(`/jobs/${invoice.job_uuid}`)).body.data.paid_at).not.toBeNull();
  });

  it('refuses to restore a payment that would overpay its invoice (400 naming amount), on both surfaces', async () => {
    const w = await world();
    const invoice = await makeInvoice(t, w.tenant);
    const first = (await pay(t, w.tenant, invoice.uuid, 60)).body.data;
    await rest(t, w.tenant).delete(`/payments/${first.uuid}`);
    expect((await pay(t, w.tenant, invoice.uuid, 50)).status).toBe(200);
    const res = await rest(t, w.tenant).post(`/payments/${first.uuid}/restore`);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['amount']);
    expect(res.body.error.message).toContain('exceeds invoice balance (50.00)');
    const g = await gql(t, w.tenant, `mutation { restorePayment(uuid: "${first.uuid}") { uuid } }`);
    expect(g.errors![0].extensions.code).toBe('VALIDATION_ERROR');
    expect(g.errors![0].extensions.details!.map((d) => d.field)).toEqual(['amount']);
    expect((await rest(t, w.tenant).get(`/invoices/${invoice.uuid}`)).body.data).toMatchObject({ paid_amount: 50, balance_amount: 50 });
    expect((await rest(t, w.tenant).get(`/payments/${first.uuid}`)).status).toBe(404);
  });

  it('a restore and a new payment that together overpay: exactly one of them succeeds', async () => {
    const w = await world();
    const invoice = await makeInvoice(t, w.tenant);
    const first = (await pay(t, w.tenant, invoice.uuid, 60)).body.data;
    await rest(t, w.tenant).delete(`/payments/${first.uuid}`);
    const [restored, paid] = await Promise.all([rest(t, w.tenant).post(`/payments/${first.uuid}/restore`), pay(t, w.tenant, invoice.uuid, 50)]);
    expect([restored.status, paid.status].sort()).toEqual([200, 400]);
    const inv = (await rest(t, w.tenant).get(`/invoices/${invoice.uuid}`)).body.data;
    expect(inv.paid_amount).toBe(restored.status === 200 ? 60 : 50);
  });

  it('refuses a payment of a deleted invoice, and records of a deleted customer (restore the parent first)', async () => {
    const w = await world();
    const invoice = await makeInvoice(t, w.tenant, { job_uuid: (await rest(t, w.tenant).post('/jobs', { customer_uuid: w.customerUuid, title: 'x' })).body.data.uuid });
    const payment = (await pay(t, w.tenant, invoice.uuid, 10)).body.data;
    await rest(t, w.tenant).delete(`/payments/${payment.uuid}`);
    expect((await rest(t, w.tenant).delete(`/invoices/${invoice.uuid}`)).status).toBe(200);
    let res = await rest(t, w.tenant).post(`/payments/${payment.uuid}/restore`);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['invoice_uuid']);
    expect(res.body.error.message).toContain('restore the invoice first');

    // The customer deleted: its invoice, job and estimate stay deleted until it is back.
    const estimate = (await rest(t, w.tenant).post('/estimates', { customer_uuid: w.customerUuid, template_uuid: (await rest(t, w.tenant).post('/templates', { name: 'n', pricing_type: 'flat', base_price: 5 })).body.data.uuid })).body.data;
    await rest(t, w.tenant).delete(`/estimates/${estimate.uuid}`);
    await rest(t, w.tenant).delete(`/jobs/${w.jobUuid}`);
    await rest(t, w.tenant).delete(`/customers/${w.customerUuid}`);
    for (const p of [`/invoices/${invoice.uuid}`, `/jobs/${w.jobUuid}`, `/estimates/${estimate.uuid}`]) {
      res = await rest(t, w.tenant).post(`${p}/restore`);
      expect(res.status).toBe(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['customer_uuid']);
      expect(res.body.error.message).toContain('restore the customer first');
    }
    const g = await gql(t, w.tenant, `mutation { restoreJob(uuid: "${w.jobUuid}") { uuid } }`);
    expect(g.errors![0].extensions.details!.map((d) => d.field)).toEqual(['customerUuid']);
    expect((await rest(t, w.tenant).post(`/customers/${w.customerUuid}/restore`)).status).toBe(200);
    for (const p of [`/invoices/${invoice.uuid}`, `/jobs/${w.jobUuid}`, `/estimates/${estimate.uuid}`, `/payments/${payment.uuid}`]) {
      expect((await rest(t, w.tenant).post(`${p}/restore`)).status).toBe(200);
    }
    expect((await rest(t, w.tenant).get(`/invoices/${invoice.uuid}`)).body.data).toMatchObject({ paid_amount: 10, balance_amount: 90 });
  });

  it('a restored job keeps its number; a photo under a deleted job is 404', async () => {
    const w = await world();
    const job = (await rest(t, w.tenant).post('/jobs', { customer_uuid: w.customerUuid, title: 'numbered' })).body.data;
    const photo = await RESOURCES.find((r) => r.name === 'job photos')!.make(w, 0);
    expect((await rest(t, w.tenant).delete(`/jobs/${w.jobUuid}/photos/${photo}`)).status).toBe(200);
    await rest(t, w.tenant).delete(`/jobs/${job.uuid}`);
    await rest(t, w.tenant).post('/jobs', { customer_uuid: w.customerUuid, title: 'next' });
    const back = await rest(t, w.tenant).post(`/jobs/${job.uuid}/restore`);
    expect(back.body.data.job_number).toBe(job.job_number);
    // The photo belongs to w.jobUuid, not to this job: not found under it.
    expect((await rest(t, w.tenant).post(`/jobs/${job.uuid}/photos/${photo}/restore`)).status).toBe(404);
    await rest(t, w.tenant).delete(`/jobs/${w.jobUuid}`);
    expect((await rest(t, w.tenant).post(`/jobs/${w.jobUuid}/photos/${photo}/restore`)).status).toBe(404);
    await rest(t, w.tenant).post(`/jobs/${w.jobUuid}/restore`);
    expect((await rest(t, w.tenant).post(`/jobs/${w.jobUuid}/photos/${photo}/restore`)).status).toBe(200);
  });

  it('a restored location is never primary', async () => {
    const w = await world();
    const main = (await rest(t, w.tenant).post('/locations', { name: 'main', address1: '1 a st', city: 'x', state: 'IL', zip: '62701', is_primary: true })).body.data;
    const branch = (await rest(t, w.tenant).post('/locations', { name: 'branch', address1: '2 a st', city: 'x', state: 'IL', zip: '62701' })).body.data;
    await rest(t, w.tenant).delete(`/locations/${branch.uuid}`);
    // Even a row flagged primary while deleted (an import, an old database) comes back as not primary.
    await t.orm.em.getConnection().execute(`update locations set is_primary = true where uuid = ?`, [branch.uuid]);
    const res = await rest(t, w.tenant).post(`/locations/${branch.uuid}/restore`);
    expect(res.status).toBe(200);
    expect(res.body.data.is_primary).toBe(false);
    expect((await rest(t, w.tenant).get(`/locations/${main.uuid}`)).body.data.is_primary).toBe(true);
  });
});
