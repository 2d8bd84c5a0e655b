import fs from 'node:fs';
import path from 'node:path';
import { EntityManager, EntityValidator, UnitOfWork } from '@mikro-orm/core';
import { PostgreSqlConnection } from '@mikro-orm/postgresql';
import { autoFlush, findRows, markClean, ORM_INTERNALS, runLogged } from '../../src/data/orm-adapter';
import { TENANT_FILTER } from '../../src/data/base.entity';
import { Customer } from '../../src/modules/customer/customer.entity';
import { createTenant, useTestApp } from '../helpers/app';

// The protected and @internal MikroORM members the read model uses are called in one file
// (src/data/orm-adapter.ts). These tests fail loudly when a MikroORM upgrade renames one, changes
// its parameters or what it does, or when another file of src/ starts calling one.

const t = useTestApp();
const owners: Record<keyof typeof ORM_INTERNALS, object> = {
  EntityManager: EntityManager.prototype,
  Connection: PostgreSqlConnection.prototype,
  UnitOfWork: UnitOfWork.prototype,
  EntityValidator: EntityValidator.prototype,
  // knex's PostgreSQL client, the class of MikroORM's `getKnex().client` here.
  KnexClient: (require('knex/lib/dialects/postgres') as { prototype: object }).prototype,
};

function srcFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? srcFiles(path.join(dir, d.name)) : d.name.endsWith('.ts') ? [path.join(dir, d.name)] : []));
}

describe('the MikroORM adapter (src/data/orm-adapter.ts)', () => {
  it.each(Object.entries(ORM_INTERNALS).flatMap(([owner, members]) => members.map(([name, arity]) => [`${owner}.${name}`, owner, name, arity] as const)))(
    '%s exists with the parameters the adapter passes',
    (_, owner, name, arity) => {
      const fn = (owners[owner as keyof typeof owners] as Record<string, unknown>)[name];
      expect(typeof fn).toBe('function');
      expect((fn as Function).length).toBe(arity);
    },
  );

  it('is the only file of src/ that calls them', () => {
    // knex's pool (KnexClient) is knex's own API, which db/orm.ts's advisory lock uses too.
    const names = Object.entries(ORM_INTERNALS)
      .filter(([owner]) => owner !== 'KnexClient')
      .flatMap(([, members]) => members.map(([name]) => name))
      .filter((n) => n !== 'merge');
    const offenders: string[] = [];
    const root = path.join(__dirname, '../../src');
    for (const file of srcFiles(root)) {
      if (file.endsWith(path.join('data', 'orm-adapter.ts'))) continue;
      const text = fs.readFileSync(file, 'utf8');
      for (const n of names) if (new RegExp(`\\.${n}\\s*\\(`).test(text)) offenders.push(`${path.relative(root, file)}: ${n}`);
      if (/getUnitOfWork\(\)\s*\.\s*merge\(/.test(text)) offenders.push(`${path.relative(root, file)}: UnitOfWork.merge`);
    }
    expect(offenders).toEqual([]);
  });

  it('behaves as the read model needs: auto-flush, em.find rows, logged statements, clean merges', async () => {
    const a = await createTenant(t);
    const em = t.orm.em.fork();
    em.setFilterParams(TENANT_FILTER, { companyId: a.companyUuid });
    const company = await em.findOneOrFail('Company', { uuid: a.companyUuid } as never);
    const c = em.create(Customer, { company, firstName: 'Ada', lastName: 'Adapter' } as never);
    em.persist(c);
    // Persisted, not flushed: the auto-flush writes it before a read of customers.
    await autoFlush(em, 'Customer');
    const [seen] = await em.getConnection().execute('select first_name from customers where uuid = ?', [c.uuid]);
    expect(seen.first_name).toBe('Ada');
    // The rows em.find reads, unhydrated, keyed by property.
    const rows = (await findRows(em, 'Customer', { lastName: 'Adapter' }, {}))!;
    expect(rows.map((r) => r.uuid)).toEqual([c.uuid]);
    expect(rows[0].firstName).toBe('Ada');
    // A knex query run as MikroORM runs its own: the result in execute()'s shape.
    const knex = em.getConnection().getKnex();
    const one = await runLogged<{ n: number }>(em, 'select 1 as n', [], 'get', knex.raw('select 1 as n'));
    expect(one).toEqual({ n: 1 });
    const all = await runLogged<Array<{ n: number }>>(em, 'select 2 as n', [], 'all', knex.raw('select 2 as n'));
    expect(all).toEqual([{ n: 2 }]);
    // A row changed by hand, its entity told: the next flush writes nothing for it.
    await em.getConnection().execute(`update customers set last_name = 'Merged' where uuid = ?`, [c.uuid]);
    c.lastName = 'Merged';
    markClean(em, c);
    em.getUnitOfWork().computeChangeSets();
    expect(em.getUnitOfWork().getChangeSets()).toHaveLength(0);
  });
});
