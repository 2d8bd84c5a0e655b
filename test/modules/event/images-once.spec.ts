import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rest, useDbClient, useTestApp } from '../../helpers/app';
import { makeWorld, RESOURCES } from '../../helpers/sync-resources';
import { makeVisit, slot } from '../../helpers/visits';
import { EVENT_TABLES, updatedFunction } from '../../../migrations/Migration20261130000046_event_images_once';

// The update triggers that make each row's images once (migration 0046) against the form they
// replace (migration 0010's): the same updates, of every tracked table, write the same event rows
// (type, row, previous, actor) through both.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-images-once-'));
const t = useTestApp({ DATA_DIR: dataDir, PHOTO_URL_SECRET: 'test-photo-secret-0123456789' });
const db = useDbClient();
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
jest.setTimeout(120_000);

/** Updates of one table's rows of a company ($1): one column, many columns, and those that make each event type. */
function updatesOf(table: string): string[] {
  const all = `where company_uuid = $1`;
  const out = [
    `update ${table} set updated_at = updated_at + interval '1 second' ${all}`,
    `update ${table} set updated_at = updated_at + interval '2 seconds', created_at = created_at - interval '1 day' ${all}`,
    `update ${table} set updated_at = updated_at ${all}`,
    `update ${table} set deleted_at = now() ${all} and deleted_at is null`,
    `update ${table} set deleted_at = null ${all}`,
  ];
  const statuses: Record<string, string[]> = {
    invoices: [`status = 'Draft'`, `status = 'Pending'`, `status = 'Paid', paid_amount = total_amount, balance_amount = 0`],
    estimates: [`status = 'Accepted'`, `status = 'Declined'`, `job_uuid = null`],
    jobs: [`status = 'In Progress'`, `status = 'Complete', description = 'done'`],
    payments: [`status = 'Refunded', refunded_amount = amount`, `status = 'Completed', refunded_amount = 0`],
  };
  for (const set of statuses[table] ?? []) out.push(`update ${table} set ${set} ${all}`);
  return out;
}

const EVENT_COLUMNS = `type, resource, record_uuid, actor, row, previous, created_at`;

describe('an update trigger that makes the images once', () => {
  it('writes the same events as the form it replaces, for every tracked table', async () => {
    const w = await makeWorld(t);
    const a = w.tenant;
    for (const r of RESOURCES) {
      if (r.name === 'users') continue;
      for (let i = 0; i < 2; i++) await r.make(w, i);
    }
    await makeVisit(t, a, w.jobUuid, { title: 'Visit', ...slot(9, 11) });
    const recurring = await rest(t, a).post('/recurring_invoices', { customer_uuid: w.customerUuid, job_uuid: w.jobUuid, rrule: 'FREQ=MONTHLY', starts_on: '2031-01-01', line_items: [{ unit_price: 10 }] });
    expect(recurring.status).toBe(200);
    // An estimate with a job, so that clearing it is a change of that column.
    await db.query(`update estimates set job_uuid = $2 where company_uuid = $1`, [a.companyUuid, w.jobUuid]);

    let compared = 0;
    const tables = new Set<string>();
    for (const table of EVENT_TABLES.map((x) => x.table)) {
      for (const statement of updatesOf(table)) {
        const written = async () => {
          await db.query(`select set_config('fsc.actor', '{"type":"test"}', true)`);
          await db.query(statement, [a.companyUuid]);
          return (await db.query(`select ${EVENT_COLUMNS} from events where xid = pg_current_xact_id() order by id`)).rows;
        };
        await db.query('begin');
        try {
          await db.query('savepoint before');
          const once = await written();
          await db.query('rollback to savepoint before');
          await db.query(updatedFunction(EVENT_TABLES.find((x) => x.table === table)!, false));
          const before = await written();
          expect({ statement, rows: once }).toEqual({ statement, rows: before });
          compared += once.length;
          if (once.length > 0) tables.add(table);
        } finally {
          await db.query('rollback');
        }
      }
    }
    // Every tracked table had rows to update, and the updates wrote events of every kind.
    expect([...tables].sort()).toEqual(EVENT_TABLES.map((x) => x.table).sort());
    expect(compared).toBeGreaterThan(100);
    // The functions in place are the migration's.
    const bodies = (await db.query(`select proname, prosrc from pg_proc where proname like 'events\\_%\\_updated'`)).rows;
    expect(bodies.map((b) => b.proname).sort()).toEqual(EVENT_TABLES.map((x) => `events_${x.table}_updated`).sort());
    for (const b of bodies) expect(b.prosrc).toContain('as new_image offset 0) as j');
  });
});
