import { Client } from 'pg';
import { createTenant, useTestApp } from '../../helpers/app';
import { makeInvoice } from '../../helpers/billing';
import { makeEstimate } from '../../helpers/estimate-fixtures';
import { NUMBERED, NUMBERED_KINDS, NumberedKind } from '../../../src/modules/numbering/numbering.format';

// numbering_taken (migration 0026) answers each numbered kind with a static statement of its own,
// planned once per session, and any other table and column with migration 0007's dynamic form.
// The two forms of the rule must agree: each branch is compared here with the dynamic form on
// numbers that are free, taken by a live document, taken by a deleted one, and taken in another
// company only.

const t = useTestApp();
const dynamicTaken = (table: string, column: string) => `select exists (select 1 from "${table}" where company_uuid = $1 and "${column}" = $2) as taken`;

describe('numbering_taken', () => {
  let db: Client;
  beforeAll(async () => {
    db = new Client({ connectionString: t.url });
    await db.connect();
  });
  afterAll(() => db.end());

  it('has a static branch for every numbered kind, and keeps the dynamic form for any other table', async () => {
    const { rows } = await db.query(`select pg_get_functiondef('numbering_taken'::regproc) as def`);
    const def = rows[0].def as string;
    for (const kind of NUMBERED_KINDS) {
      const { table, column } = NUMBERED[kind];
      expect([kind, def.includes(`if p_table = '${table}' and p_column = '${column}' then`)]).toEqual([kind, true]);
      expect([kind, def.includes(`from ${table} where company_uuid = p_company and ${column} = p_number`)]).toEqual([kind, true]);
    }
    expect(def).toContain(`execute format('select exists (select 1 from %I where company_uuid = $1 and %I = $2)', p_table, p_column)`);
  });

  it('answers as the dynamic form for every numbered kind: free, live, deleted, another company', async () => {
    const [mine, other] = [await createTenant(t), await createTenant(t)];
    const made: Record<NumberedKind, string> = { invoice: (await makeInvoice(t, mine)).uuid, estimate: (await makeEstimate(t, mine)).estimate.uuid };
    const expected = { 'TK-LIVE': true, 'TK-GONE': true, 'TK-OTHER': false, 'TK-FREE': false };
    await db.query('begin');
    try {
      for (const kind of NUMBERED_KINDS) {
        const { table, column } = NUMBERED[kind];
        // Copies of the document made above, under other numbers: one live, one deleted, one of the
        // other company (rolled back; the copies' own triggers and keys are not what is tested).
        const copy = (number: string, deleted: boolean, company: string) =>
          db.query(
            `insert into "${table}" select (jsonb_populate_record(null::"${table}", to_jsonb(d) || jsonb_build_object('uuid', gen_random_uuid(), '${column}', $2::text, 'deleted_at', case when $3 then now() end, 'company_uuid', $4::uuid))).* from "${table}" d where uuid = $1`,
            [made[kind], number, deleted, company],
          );
        await db.query(`set local session_replication_role = replica`);
        await copy('TK-LIVE', false, mine.companyUuid);
        await copy('TK-GONE', true, mine.companyUuid);
        await copy('TK-OTHER', false, other.companyUuid);
        expect([kind, (await db.query(`select count(*)::int as n from "${table}" where "${column}" like 'TK-%'`)).rows[0].n]).toEqual([kind, 3]);
        await db.query(`set local session_replication_role = origin`);
        for (const [number, taken] of Object.entries(expected)) {
          const viaFunction = (await db.query(`select numbering_taken($1, $2, $3, $4) as taken`, [mine.companyUuid, table, column, number])).rows[0].taken;
          const viaDynamic = (await db.query(dynamicTaken(table, column), [mine.companyUuid, number])).rows[0].taken;
          expect([kind, number, viaFunction, viaDynamic]).toEqual([kind, number, taken, taken]);
        }
      }
      // A table without a static branch goes through the dynamic form.
      expect((await db.query(`select numbering_taken($1, 'customers', 'email', 'nobody@taken.example') as taken`, [mine.companyUuid])).rows[0].taken).toBe(false);
    } finally {
      await db.query('rollback');
    }
  });
});
