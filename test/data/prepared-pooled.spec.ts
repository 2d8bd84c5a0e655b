import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, statementOf } from '../../src/data/prepared';
import { readModelStatements } from '../../src/data/queries';
import { createTenant, rest, useTestApp } from '../helpers/app';

// runStatement runs its named statement on the connection directly (src/data/orm-adapter.ts
// runPooled: a pooled connection, or inside a transaction the transaction's) instead of through
// knex's raw query. It must send the statement knex would send, and give the rows, errors and
// refusals of knex's way (MikroORM's execute, which runs through knex).
const t = useTestApp();

it("numbers the placeholders as knex does, for every committed statement of the read model and other shapes", () => {
  const knex = t.orm.em.getConnection().getKnex();
  const texts = [...readModelStatements(t.orm.em as EntityManager).values()].flat().map((s) => s.sql);
  texts.push('select ?::int as a, ? as b', "select '?' as literal, ? as v", 'select 1', 'select ? -- a comment?\n, ?');
  expect(texts.length).toBeGreaterThan(40);
  for (const sql of texts) {
    const count = (sql.match(/\?/g) ?? []).length;
    const native = knex.raw(sql, Array.from({ length: count }, (_, i) => i)).toSQL().toNative().sql;
    expect({ sql, text: statementOf(sql).text }).toEqual({ sql, text: native });
  }
  // knex's identifier and escape forms stay with knex.
  expect(statementOf('select ?? from customers').text).toBeNull();
  expect(statementOf('select \\? as q').text).toBeNull();
});

it("gives knex's rows outside a transaction and inside one, for reads of every shape", async () => {
  const a = await createTenant(t);
  for (const name of ['Ada', 'Grace', 'Zoë']) await rest(t, a).post('/customers', { first_name: name, last_name: 'Pooled' });
  const em = t.orm.em.fork() as EntityManager;
  const cases: Array<[string, unknown[], 'all' | 'get']> = [
    ['select first_name, last_name, created_at, 1.5::numeric as n, null::text as z from customers where company_uuid = ? order by first_name', [a.companyUuid], 'all'],
    ['select count(*) as total from customers where company_uuid = ? and first_name = ?', [a.companyUuid, 'Zoë'], 'get'],
    ['select ?::jsonb as doc, ?::timestamptz as at, ?::boolean as b', [JSON.stringify({ k: ['v', 1] }), new Date('2026-11-26T05:00:00Z'), true], 'get'],
    ['select first_name from customers where company_uuid = ? and first_name = ?', [a.companyUuid, 'nobody'], 'all'],
  ];
  for (const [sql, params, method] of cases) {
    const pooled = await runStatement(em, sql, params, method);
    const inTx = await em.transactional((tx) => runStatement(tx as EntityManager, sql, params, method));
    const throughKnex = await em.getConnection().execute(sql, [...params], method);
    expect({ sql, rows: pooled }).toEqual({ sql, rows: throughKnex });
    expect({ sql, rows: inTx }).toEqual({ sql, rows: throughKnex });
  }
});

it("runs inside a transaction on the transaction's connection, and refuses once it has ended", async () => {
  const em = t.orm.em.fork() as EntityManager;
  let txEm: EntityManager | undefined;
  const pids = await em.transactional(async (tx) => {
    txEm = tx as EntityManager;
    const own = await runStatement<{ pid: number }>(tx as EntityManager, 'select pg_backend_pid() as pid, ?::int as n', [1], 'get');
    await runStatement(tx as EntityManager, 'create temporary table pooled_probe (n int) on commit drop', [], 'all');
    await runStatement(tx as EntityManager, 'insert into pooled_probe values (?)', [7], 'all');
    const seen = await runStatement<{ n: number }[]>(tx as EntityManager, 'select n from pooled_probe', []);
    const again = await runStatement<{ pid: number }>(tx as EntityManager, 'select pg_backend_pid() as pid, ?::int as n', [2], 'get');
    // The fork outside the transaction, while the transaction holds its connection: a pooled one.
    const beside = await runStatement<{ pid: number }>(em, 'select pg_backend_pid() as pid, ?::int as n', [3], 'get');
    return { first: own.pid, again: again.pid, beside: beside.pid, seen };
  });
  // One connection for the whole transaction (the temporary table is seen), another for the statement beside it.
  expect(pids.seen).toEqual([{ n: 7 }]);
  expect(pids.again).toBe(pids.first);
  expect(pids.beside).not.toBe(pids.first);
  await expect(runStatement(txEm!, 'select ?::int as n', [1])).rejects.toThrow(/^Transaction query already complete/);
});

it('fails the same way: the driver error with its code, and an undefined value refused before it is sent', async () => {
  const em = t.orm.em.fork() as EntityManager;
  const errorOf = (p: Promise<unknown>) => p.then(() => null, (e: { code?: string; message: string }) => e);
  const pooled = await errorOf(runStatement(em, 'select 1 / ?::int as x', [0]));
  const inTx = await errorOf(em.transactional((tx) => runStatement(tx as EntityManager, 'select 1 / ?::int as x', [0])));
  const throughKnex = await errorOf(em.getConnection().execute('select 1 / ?::int as x', [0]));
  expect(pooled?.code).toBe('22012');
  expect(inTx?.code).toBe(pooled?.code);
  expect(throughKnex?.code).toBe(pooled?.code);
  expect(pooled?.message).toBe('division by zero');
  expect(inTx?.message).toBe('division by zero');
  expect(throughKnex?.message).toMatch(/division by zero$/);
  const undefinedPooled = await errorOf(runStatement(em, 'select ?::int as x', [undefined]));
  const undefinedTx = await errorOf(em.transactional((tx) => runStatement(tx as EntityManager, 'select ?::int as x', [undefined])));
  expect(undefinedPooled?.message).toMatch(/^Undefined binding\(s\) detected/);
  expect(undefinedTx?.message).toMatch(/^Undefined binding\(s\) detected/);
  // The pool is whole afterwards: every connection was given back.
  const pool = (t.orm.em.getConnection().getKnex().client as { pool: { numUsed(): number } }).pool;
  expect(pool.numUsed()).toBe(0);
});
