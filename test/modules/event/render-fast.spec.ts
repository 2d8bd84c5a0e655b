import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import request from 'supertest';
import { rest, useTestApp } from '../../helpers/app';
import { pay } from '../../helpers/billing';
import { png } from '../../helpers/images';
import { makeWorld, RESOURCES } from '../../helpers/sync-resources';
import { makeVisit, slot } from '../../helpers/visits';
import { assignPositions } from '../../../src/modules/event/event.maintenance';
import { renderEvent, type EventRow } from '../../../src/modules/event/event.render';
import { renderEventFast } from '../../../src/modules/event/event.render-fast';
import { Event } from '../../../src/modules/event/event.types';
import { toRest } from '../../../src/rest/case-map';

// The feed's renderer (src/modules/event/event.render-fast.ts) against the plain one
// (renderEvent): the same JSON for every event of every resource, and for made-up changes of any
// set of columns.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-render-fast-'));
const t = useTestApp({ DATA_DIR: dataDir, PHOTO_URL_SECRET: 'test-photo-secret-0123456789' });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const json = (render: typeof renderEvent, row: EventRow) => JSON.stringify(toRest(Event, render(t.orm.em as any, row)));

async function eventRows(): Promise<EventRow[]> {
  await assignPositions(t.orm);
  return t.orm.em.getConnection().execute<EventRow[]>('select id, type, resource, record_uuid, actor, row, previous, created_at from events order by position');
}

describe('the fast event renderer', () => {
  it('renders every event of every resource as the plain renderer does, and made-up changes of any columns too', async () => {
    const w = await makeWorld(t);
    const a = w.tenant;
    const made: Array<{ one?: string; uuid: string }> = [];
    for (const r of RESOURCES) {
      if (r.name === 'users') continue;
      for (let i = 0; i < 4; i++) {
        const uuid = await r.make(w, i);
        made.push({ one: r.one?.(w, uuid), uuid });
      }
    }
    // Deletes and restores (previous: deleted_at), and changes that emit several types.
    for (const m of made.filter((x) => x.one).slice(0, 12)) {
      expect((await rest(t, a).delete(m.one!)).status).toBe(200);
      await rest(t, a).post(`${m.one}/restore`, {});
    }
    const est = (await rest(t, a).get('/estimates')).body.data.estimates[0];
    expect((await rest(t, a).put(`/estimates/${est.uuid}`, { status: 'Accepted' })).status).toBe(200);
    const inv = (await rest(t, a).get('/invoices')).body.data.invoices[0];
    expect((await rest(t, a).put(`/invoices/${inv.uuid}`, { status: 'Pending', notes: 'sent' })).status).toBe(200);
    expect((await pay(t, a, inv.uuid, 10)).status).toBe(200);
    const up = await request(t.app).post(`/api/v1/jobs/${w.jobUuid}/photos`).set('Authorization', `Bearer ${a.key}`).attach('photos', png(2, 2), { filename: 'b.png' });
    expect(up.status).toBe(200);
    const visit = await makeVisit(t, a, w.jobUuid, { title: 'Visit', ...slot(9, 11) });
    expect((await rest(t, a).put(`/visits/${visit.uuid}`, { title: 'Moved', ...slot(10, 12) })).status).toBe(200);
    expect((await rest(t, a).put(`/jobs/${w.jobUuid}`, { status: 'In Progress', description: 'now' })).status).toBe(200);

    const rows = await eventRows();
    const resources = new Set(rows.map((r) => r.resource));
    for (const r of ['customer', 'location', 'template', 'estimate', 'job', 'job_photo', 'invoice', 'payment', 'visit']) expect(resources).toContain(r);
    expect(rows.some((r) => r.previous && Object.keys(r.previous).length > 1)).toBe(true);
    for (const row of rows) expect([row.type, json(renderEventFast, row)]).toEqual([row.type, json(renderEvent, row)]);

    // Made-up changes: a row image with any subset of its columns "changed" to another record's
    // values of the same resource (or to null), as an update's previous would hold them.
    const byResource = new Map<string, EventRow[]>();
    for (const row of rows) byResource.set(row.resource, [...(byResource.get(row.resource) ?? []), row]);
    const groups = [...byResource.values()];
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.nat(), fc.array(fc.nat()), fc.boolean(), (g, i, j, picks, nulls) => {
        const group = groups[g % groups.length];
        const row = group[i % group.length];
        const other = group[j % group.length].row;
        const columns = Object.keys(row.row);
        const previous: Record<string, unknown> = {};
        for (const p of picks) {
          const c = columns[p % columns.length];
          // null only where some record of the resource has it (a column that can be null).
          previous[c] = nulls && p % 3 === 0 && group.some((r) => r.row[c] === null) ? null : other[c];
        }
        const event = { ...row, type: `${row.resource}.updated`, previous };
        expect(json(renderEventFast, event)).toBe(json(renderEvent, event));
      }),
      { numRuns: 2000 },
    );
  });
});
