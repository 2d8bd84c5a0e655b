import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createTenant, rest, useTestApp } from '../../helpers/app';
import { makeCustomer, makeInvoice, makeJob, pay } from '../../helpers/billing';
import { makeLocation, makeTemplate } from '../../helpers/estimate-fixtures';
import { readAll, withoutSummaries } from '../../helpers/events';
import { png } from '../../helpers/images';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-events-'));
const t = useTestApp({ DATA_DIR: dataDir, PHOTO_URL_SECRET: 'test-photo-secret-0123456789' });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

// REST GET path of each resource's record, and the embedded summaries its GET adds.
const GET: Record<string, { path: (e: any) => string; summaries: string[] }> = {
  customer: { path: (o) => `/customers/${o.uuid}`, summaries: [] },
  location: { path: (o) => `/locations/${o.uuid}`, summaries: [] },
  template: { path: (o) => `/templates/${o.uuid}`, summaries: [] },
  job: { path: (o) => `/jobs/${o.uuid}`, summaries: ['customer', 'location', 'assigned_user'] },
  estimate: { path: (o) => `/estimates/${o.uuid}`, summaries: ['customer', 'job', 'template', 'location'] },
  invoice: { path: (o) => `/invoices/${o.uuid}`, summaries: ['customer', 'job', 'estimate', 'location'] },
  payment: { path: (o) => `/payments/${o.uuid}`, summaries: ['invoice', 'customer'] },
  // photo_url is a link signed per response: events carry null (docs/events.md).
  job_photo: { path: (o) => `/jobs/${o.job_uuid}/photos/${o.uuid}`, summaries: ['user', 'photo_url'] },
};

describe('event objects', () => {
  it("each record's latest event shows it exactly as REST GET does (without embedded summaries), for every resource", async () => {
    const a = await createTenant(t, { addons: ['job_photos'] });
    const customer = await makeCustomer(t, a);
    const loc = await makeLocation(t, a, { is_primary: true });
    const template = await makeTemplate(t, a);
    const job = await makeJob(t, a, { customer_uuid: customer.uuid });
    const est = (await rest(t, a).post('/estimates', { customer_uuid: customer.uuid, template_uuid: template.uuid, location_uuid: loc.uuid, quantity: 2, selected_addons: ['haul'] })).body.data;
    expect((await rest(t, a).put(`/estimates/${est.uuid}`, { status: 'Accepted' })).status).toBe(200);
    expect((await rest(t, a).put(`/estimates/${est.uuid}`, { job_uuid: job.uuid })).status).toBe(200);
    const inv = await makeInvoice(t, a, { job_uuid: job.uuid, status: 'Draft', line_items: [{ description: 'Work', quantity: 2, unit_price: 50.5, tax_rate: 8.25 }] });
    expect((await rest(t, a).put(`/invoices/${inv.uuid}`, { status: 'Pending' })).status).toBe(200);
    expect((await pay(t, a, inv.uuid, 10)).status).toBe(200);
    const up = await request(t.app).post(`/api/v1/jobs/${job.uuid}/photos`).set('Authorization', `Bearer ${a.key}`).attach('photos', png(2, 2), { filename: 'a.png' });
    expect(up.status).toBe(200);
    expect((await rest(t, a).put(`/templates/${template.uuid}`, { name: 'Renamed' })).status).toBe(200);
    expect((await rest(t, a).put(`/locations/${loc.uuid}`, { city: 'Chicago' })).status).toBe(200);

    const { events } = await readAll(t, a);
    const types = new Set(events.map((e) => e.type));
    for (const ty of ['estimate.accepted', 'estimate.converted', 'invoice.sent', 'payment.completed', 'job_photo.created', 'template.updated', 'location.updated']) expect(types).toContain(ty);
    expect(types).not.toContain('invoice.paid');
    const latest = new Map<string, any>();
    for (const e of events) latest.set(e.record_uuid, e);
    expect(new Set([...latest.values()].map((e) => e.resource))).toEqual(new Set(Object.keys(GET)));
    for (const e of latest.values()) {
      const spec = GET[e.resource];
      const res = await rest(t, a).get(spec.path(e.data.object));
      expect(res.status).toBe(200);
      const object = e.resource === 'job_photo' ? withoutSummaries(e.data.object, ['photo_url']) : e.data.object;
      expect([e.type, object]).toEqual([e.type, withoutSummaries(res.body.data, spec.summaries)]);
    }
  });
});
