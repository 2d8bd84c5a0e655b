import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, statementOf } from '../../src/data/prepared';
import { readModelStatements } from '../../src/data/queries';
import { createTenant, rest, useTestApp } from '../helpers/app';

// Outside a transaction, runStatement runs its named statement on a pooled connection directly
// (src/data/orm-adapter.ts runPooled) instead of through knex's raw query; inside one, through
// knex on the transaction's connection as before. Both must send the same statement text and
// give the same rows, errors and refusals.
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

it('gives the same rows outside a transaction (pooled) as inside one (knex), for reads of every shape', async () => {
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
    expect({ sql, rows: pooled }).toEqual({ sql, rows: inTx });
  }
});

it('fails the same way: the driver error with its code, and an undefined value refused before it is sent', async () => {
  const em = t.orm.em.fork() as EntityManager;
  const errorOf = (p: Promise<unknown>) => p.then(() => null, (e: { code?: string; message: string }) => e);
  const pooled = await errorOf(runStatement(em, 'select 1 / ?::int as x', [0]));
  const inTx = await errorOf(em.transactional((tx) => runStatement(tx as EntityManager, 'select 1 / ?::int as x', [0])));
  expect(pooled?.code).toBe('22012');
  expect(inTx?.code).toBe(pooled?.code);
  expect(pooled?.message).toBe('division by zero');
  expect(inTx?.message).toMatch(/division by zero$/);
  const undefinedPooled = await errorOf(runStatement(em, 'select ?::int as x', [undefined]));
  const undefinedTx = await errorOf(em.transactional((tx) => runStatement(tx as EntityManager, 'select ?::int as x', [undefined])));
  expect(undefinedPooled?.message).toMatch(/^Undefined binding\(s\) detected/);
  expect(undefinedTx?.message).toMatch(/^Undefined binding\(s\) detected/);
  // The pool is whole afterwards: every connection was given back.
  const pool = (t.orm.em.getConnection().getKnex().client as { pool: { numUsed(): number } }).pool;
  expect(pool.numUsed()).toBe(0);
});
