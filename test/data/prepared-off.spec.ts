import { Client } from 'pg';
import { initOrm } from '../../src/db/orm';
import { prepareUnlessThere, runStatement, statementOf, usePreparedStatements } from '../../src/data/prepared';
import { createTenant, gql, rest, useTestApp } from '../helpers/app';

// DB_PREPARED_STATEMENTS=false (for a pooler in transaction mode that cannot keep a connection's
// prepared statements for its client): a statement outside a transaction is kept with SQL's
// PREPARE on each server connection it reaches and run as `EXECUTE name(values)`, one simple query
// each (src/data/prepared.ts). Such a pooler cannot LISTEN either: API_KEY_CACHE=false, as
// docs/access-and-operations.md says, so every request looks its key up.
const t = useTestApp({ DB_PREPARED_STATEMENTS: 'false', API_KEY_CACHE: 'false' });

describe('DB_PREPARED_STATEMENTS=false', () => {
  it('answers lists and the key lookup with EXECUTE of statements kept by name, never a named protocol statement', async () => {
    const a = await createTenant(t);
    await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'Lovelace' });
    const original = Client.prototype.query;
    const texts: string[] = [];
    const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: any[]) {
      const q = args[0] as string | { name?: string; text: string };
      texts.push(typeof q === 'string' ? q : `${q.name ?? ''}:${q.text}`);
      return (original as any).apply(this, args);
    });
    try {
      const list = await rest(t, a).get('/customers?limit=5');
      expect(list.body.data.customers.map((c: { first_name: string }) => c.first_name)).toEqual(['Ada']);
      const page = await gql(t, a, `{ customers(limit: 5) { items { firstName } pagination { total } } }`);
      expect(page.data.customers).toEqual({ items: [{ firstName: 'Ada' }], pagination: { total: 1 } });
    } finally {
      spy.mockRestore();
    }
    // The key lookup and the list, for each of the two requests; a first use on a connection prepares first.
    const runs = texts.filter((q) => /(^|; )execute fsk_[0-9a-f]{24}\(/.test(q));
    expect(runs).toHaveLength(4 + texts.filter((q) => q.startsWith('do $fsc$')).length);
    expect(texts.filter((q) => /^fs[ck]_/.test(q))).toEqual([]);
  });

  it('prepares a statement on the first use on a connection, then only executes it, and prepares it again once it is gone', async () => {
    const orm = await initOrm(t.url, 1);
    const texts: string[] = [];
    const original = Client.prototype.query;
    const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: any[]) {
      if (typeof args[0] === 'string') texts.push(args[0]);
      return (original as any).apply(this, args);
    });
    try {
      const sql = 'select ?::int + 1 as n';
      const name = statementOf(sql).kept!;
      const run = async (v: number) => (await runStatement<{ n: number }>(orm.em.fork(), sql, [v], 'get')).n;
      expect(await run(1)).toBe(2);
      expect(await run(2)).toBe(3);
      await orm.em.getConnection().execute('deallocate all');
      expect(await run(3)).toBe(4);
      expect(texts.filter((q) => q.includes(name)).map((q) => q.replace(/^do \$fsc\$.*\$fsc\$; /s, 'prepare; '))).toEqual([
        `execute ${name}('1')`,
        `prepare; execute ${name}('1')`,
        `execute ${name}('2')`,
        `execute ${name}('3')`,
        `prepare; execute ${name}('3')`,
      ]);
    } finally {
      spy.mockRestore();
      await orm.close(true);
    }
  });

  it('prepares nothing where the statement is there already (a pooler gave another connection after the miss)', async () => {
    const c = new Client({ connectionString: t.url });
    await c.connect();
    try {
      const block = prepareUnlessThere('fsc_test_there', 'select $1::text as v');
      await c.query(block);
      await c.query(block);
      expect((await c.query(`execute fsc_test_there('x')`)).rows).toEqual([{ v: 'x' }]);
    } finally {
      await c.end();
    }
  });

  it('fails as the named statement fails: the driver error with its code, an undefined value refused before it is sent, the connection given back', async () => {
    const orm = await initOrm(t.url, 1);
    const errorOf = (p: Promise<unknown>) => p.then(() => null, (e: { code?: string; message: string }) => e);
    try {
      // Twice: on the miss (the block, then the EXECUTE, fails) and on the hit.
      for (let i = 0; i < 2; i++) {
        const kept = await errorOf(runStatement(orm.em.fork(), 'select 1 / ?::int as x', [0]));
        expect([kept?.code, kept?.message]).toEqual(['22012', 'division by zero']);
      }
      const undefinedKept = await errorOf(runStatement(orm.em.fork(), 'select ?::int as x', [undefined]));
      expect(undefinedKept?.message).toMatch(/^Undefined binding\(s\) detected/);
      expect((await runStatement<{ x: number }>(orm.em.fork(), 'select 1 / ?::int as x', [1], 'get')).x).toBe(1);
      expect((orm.em.getConnection().getKnex().client as { pool: { numUsed(): number } }).pool.numUsed()).toBe(0);
    } finally {
      await orm.close(true);
    }
  });

  it('runs through MikroORM what it cannot keep: a text holding the block\'s quote, a binary value', async () => {
    const orm = await initOrm(t.url, 1);
    const execute = jest.spyOn(orm.em.getConnection(), 'execute');
    try {
      const quoted = `select '$fsc$'::text as q, ?::int as n`;
      expect(statementOf(quoted).kept).toBeNull();
      expect(await runStatement(orm.em.fork(), quoted, [1], 'get')).toEqual({ q: '$fsc$', n: 1 });
      const bytes = 'select length(?::bytea) as n';
      expect(await runStatement(orm.em.fork(), bytes, [Buffer.from([0, 1, 2])], 'get')).toEqual({ n: 3 });
      expect(execute.mock.calls.map((c) => c[0])).toEqual([quoted, bytes]);
    } finally {
      execute.mockRestore();
      await orm.close(true);
    }
  });

  it('gives the answers of the named statement and of the values written into the text, for every kind of value', async () => {
    const sql =
      'select ?::text as s, ?::int as i, ?::float8 as f, ?::numeric as n, ?::boolean as b, ?::timestamptz as t, ?::date as d, ?::jsonb as j, ?::uuid as u, ? as x, ?::text is null as z';
    const values = [`O'Brien \\ "quoted" ✓ $fsc$`, 42, 1.5, '12345678901234567890.25', false, new Date('2026-11-30T01:02:03.456Z'), '2026-02-28', { a: [1, "it's"], b: null }, '00000000-0000-4000-8000-000000000001', 'plain', null];
    const orm = await initOrm(t.url, 1);
    try {
      const kept = await runStatement(orm.em.fork(), sql, values, 'get');
      const keptAgain = await runStatement(orm.em.fork(), sql, values, 'get');
      const plain = await orm.em.getConnection().execute(sql, values, 'get');
      usePreparedStatements(true);
      const named = await runStatement(orm.em.fork(), sql, values, 'get').finally(() => usePreparedStatements(false));
      expect(kept).toEqual(named);
      expect(keptAgain).toEqual(named);
      expect(plain).toEqual(named);
      expect(kept).toMatchObject({ s: values[0], i: 42, j: values[7], z: true });
    } finally {
      await orm.close(true);
    }
  });
});
