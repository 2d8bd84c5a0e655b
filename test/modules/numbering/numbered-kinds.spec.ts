import { Client } from 'pg';
import { workerDatabase } from '../../helpers/app';
import { NUMBERED, NUMBERED_KINDS } from '../../../src/modules/numbering/numbering.format';

// The numbered kinds are declared once (src/modules/numbering/numbering.format.ts), not registered
// by the modules as they load: each names a text column of a table the migrations made.

it('every numbered kind names an existing text column of its table', async () => {
  const db = new Client({ connectionString: await workerDatabase() });
  await db.connect();
  try {
    expect(NUMBERED_KINDS.sort()).toEqual(['estimate', 'invoice']);
    for (const kind of NUMBERED_KINDS) {
      const { table, column } = NUMBERED[kind];
      const { rows } = await db.query(`select data_type from information_schema.columns where table_schema = 'public' and table_name = $1 and column_name = $2`, [table, column]);
      expect([kind, rows.map((r) => r.data_type)]).toEqual([kind, ['text']]);
    }
  } finally {
    await db.end();
  }
});
