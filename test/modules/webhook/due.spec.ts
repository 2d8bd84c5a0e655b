import { DUE_SQL } from '../../../src/modules/webhook/webhook.dispatch';
import { createTenant, useDbClient, useTestApp } from '../../helpers/app';

// The dispatcher's idle turn (src/modules/webhook/webhook.dispatch.ts, DUE_SQL), every second in
// every server process: with many events and none due, it must read the position index from the
// cursor, not the table. The events and their statistics are made in a transaction rolled back.

const t = useTestApp();
const db = useDbClient();

/** The plan's nodes, flattened. */
function nodes(plan: { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: unknown[] }): { type: string; relation?: string; index?: string }[] {
  return [{ type: plan['Node Type'], relation: plan['Relation Name'], index: plan['Index Name'] }, ...(plan.Plans ?? []).flatMap((p) => nodes(p as typeof plan))];
}

describe('the dispatcher: is an event due', () => {
  it('reads the position index from the cursor, not every event, with 50,000 events and none due', async () => {
    const a = await createTenant(t);
    await db.query('begin');
    try {
      await db.query(
        `insert into events (company_uuid, type, resource, record_uuid, row, position)
         select $1, 'customer.updated', 'customer', gen_random_uuid(), '{}'::jsonb, n from generate_series(1, 50000) as n`,
        [a.companyUuid],
      );
      await db.query('analyze events');
      const { rows } = await db.query(`explain (format json) ${DUE_SQL}`);
      const found = nodes(rows[0]['QUERY PLAN'][0].Plan).filter((n) => n.relation === 'events');
      expect(found).toEqual([expect.objectContaining({ type: expect.stringMatching(/^Index( Only)? Scan$/), index: 'events_position_idx' })]);
    } finally {
      await db.query('rollback');
    }
  });

  it('answers as the scan does: a row when an event lies past the cursor, none otherwise', async () => {
    const a = await createTenant(t);
    await db.query('begin');
    try {
      await db.query(`insert into webhook_dispatch_state values (1, 0) on conflict (id) do nothing`);
      const plain = `select 1 from events where position > coalesce((select position from webhook_dispatch_state where id = 1), 0) limit 1`;
      const top = Number((await db.query(`select coalesce(max(position), 0) as p from events`)).rows[0].p);
      await db.query(`insert into events (company_uuid, type, resource, record_uuid, row, position) values ($1, 'customer.updated', 'customer', gen_random_uuid(), '{}', $2)`, [a.companyUuid, top + 1]);
      for (const cursor of [0, top, top + 1, top + 5]) {
        await db.query(`update webhook_dispatch_state set position = $1 where id = 1`, [cursor]);
        const [due, scan] = [(await db.query(DUE_SQL)).rowCount, (await db.query(plain)).rowCount];
        expect({ cursor, due }).toEqual({ cursor, due: scan });
        expect(due).toBe(cursor <= top ? 1 : 0);
      }
    } finally {
      await db.query('rollback');
    }
  });
});
