import { ReferenceKind } from '@mikro-orm/core';
import { fieldsOf } from '../../src/schema/fields';
import { leanColumn, leanList, Related } from '../../src/data/list';
import { ormCount, ormPage } from '../helpers/orm-page';
import { leanByKeys } from '../../src/data/keyed';
import { leanFind } from '../../src/data/record';
import { TENANT_FILTER } from '../../src/data/base.entity';
import { entities } from '../../src/db/entities';
import { Customer } from '../../src/modules/customer/customer.entity';
import { Invoice } from '../../src/modules/invoice/invoice.entity';
import { seedDemoIfEmpty } from '../../src/seed/demo';
import { useTestApp } from '../helpers/app';

// The lean read path (lists, loaders) must give what MikroORM's hydration gives: every declared
// field (getters included), every column property and every reference's key, for every entity.

const t = useTestApp();

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return JSON.stringify(a) === JSON.stringify(b);
}

function compare(cls: any, meta: any, managed: any, lean: any): string[] {
  const diffs: string[] = [];
  for (const f of fieldsOf(cls)) {
    if (f.io !== 'out') continue;
    if (!same(managed[f.prop], lean[f.prop])) diffs.push(`${cls.name}.${f.prop}: ${JSON.stringify(managed[f.prop])} vs ${JSON.stringify(lean[f.prop])}`);
  }
  for (const p of meta.props) {
    if (p.kind === ReferenceKind.MANY_TO_ONE) {
      const pk = p.targetMeta.primaryKeys[0];
      const [a, b] = [managed[p.name]?.[pk] ?? null, lean[p.name]?.[pk] ?? null];
      if (a !== b) diffs.push(`${cls.name}.${p.name}: ${a} vs ${b}`);
      if (lean[p.name] && !(lean[p.name] instanceof p.targetMeta.class)) diffs.push(`${cls.name}.${p.name} is not a ${p.targetMeta.className}`);
    } else if (p.kind === ReferenceKind.SCALAR && !same(managed[p.name], lean[p.name])) {
      diffs.push(`${cls.name}.${p.name}: ${JSON.stringify(managed[p.name])} vs ${JSON.stringify(lean[p.name])}`);
    }
  }
  if (!(lean instanceof cls)) diffs.push(`${cls.name}: lean record is not an instance`);
  return diffs;
}

/** A fork of the EntityManager under a company's tenant filter, as a request's. */
function tenantFork(companyId: string) {
  const e = t.orm.em.fork();
  e.setFilterParams(TENANT_FILTER, { companyId });
  return e;
}

describe('lean read path', () => {
  it('maps every entity as MikroORM hydrates it (leanFind vs em.find)', async () => {
    const demo = await seedDemoIfEmpty(t.orm);
    expect(demo).not.toBeNull();
    const diffs: string[] = [];
    let compared = 0;
    for (const cls of entities as any[]) {
      const meta = t.orm.getMetadata().get(cls.name);
      const managed = await t.orm.em.fork().find(cls, {}, { filters: false, orderBy: { [meta.primaryKeys[0]]: 'asc' } });
      const lean = await leanFind(t.orm.em.fork(), cls, {}, { filters: false, orderBy: { [meta.primaryKeys[0]]: 'asc' } });
      expect(lean).toHaveLength(managed.length);
      managed.forEach((m: any, i: number) => diffs.push(...compare(cls, meta, m, lean[i])));
      compared += managed.length;
    }
    expect(diffs).toEqual([]);
    expect(compared).toBeGreaterThan(10);
  });

  it('loads under the tenant filter as em.find does (the filter joins on relations included)', async () => {
    const demo = await seedDemoIfEmpty(t.orm);
    const em = () => tenantFork(demo!.company.uuid);
    const diffs: string[] = [];
    for (const cls of entities as any[]) {
      const meta = t.orm.getMetadata().get(cls.name);
      if (!meta.filters[TENANT_FILTER]) continue;
      const orderBy = { [meta.primaryKeys[0]]: 'asc' };
      const managed = await em().find(cls, {}, { orderBy });
      const e2 = em();
      const lean = await leanFind(e2, cls, {}, { orderBy });
      expect(lean).toHaveLength(managed.length);
      managed.forEach((m: any, i: number) => {
        diffs.push(...compare(cls, meta, m, lean[i]));
        if (Object.getPrototypeOf(lean[i]) === cls.prototype) diffs.push(`${cls.name}: managed, not lean`);
      });
      expect(e2.getUnitOfWork().getIdentityMap().values().length).toBe(0);
    }
    expect(diffs).toEqual([]);
  });

  it('lists pages as the query builder\'s getResultList does, company and order alike', async () => {
    const demo = await seedDemoIfEmpty(t.orm);
    const companyId = demo!.company.uuid;
    const diffs: string[] = [];
    for (const cls of entities as any[]) {
      const meta = t.orm.getMetadata().get(cls.name);
      if (!meta.properties.company || !meta.properties.createdAt) continue;
      const em = () => tenantFork(companyId);
      const qb = (e: any) => e.createQueryBuilder(cls, 'e').where({ company: companyId }).orderBy({ createdAt: 'desc', [meta.primaryKeys[0]]: 'desc' }).limit(3).offset(1);
      const e1 = em();
      const managed = await qb(e1).getResultList();
      const e2 = em();
      const lean = (await leanList(e2, cls, companyId, `e.${leanColumn(e2, cls, 'company')} = ?`, [companyId], 3, 1)).items;
      expect(lean).toHaveLength(managed.length);
      managed.forEach((m: any, i: number) => diffs.push(...compare(cls, meta, m, lean[i])));
      // Lean records stay out of the unit of work.
      expect(e2.getUnitOfWork().getIdentityMap().values().length).toBe(0);
    }
    expect(diffs).toEqual([]);
  });

  it('lists a page with its count and related records in one statement (leanList) as MikroORM hydrates them, with their count and the records the loaders give', async () => {
    const demo = await seedDemoIfEmpty(t.orm);
    const companyId = demo!.company.uuid;
    const em = () => tenantFork(companyId);
    const diffs: string[] = [];
    let lists = 0;
    let relatedCompared = 0;
    for (const cls of entities as any[]) {
      const meta = t.orm.getMetadata().get(cls.name);
      if (!meta.properties.company || !meta.properties.createdAt) continue;
      // Every many-to-one of the entity, and every entity that refers to it (children).
      const related: Related[] = meta.relations
        .filter((p: any) => p.kind === ReferenceKind.MANY_TO_ONE && p.name !== 'company')
        .map((p: any) => ({ kind: 'one', prop: p.name }) as Related);
      for (const other of t.orm.getMetadata().getAll() ? Object.values(t.orm.getMetadata().getAll()) : []) {
        if (!other.properties.deletedAt || !other.properties.createdAt || !other.properties.company) continue;
        for (const p of other.relations) if (p.kind === ReferenceKind.MANY_TO_ONE && p.targetMeta === meta) related.push({ kind: 'children', entity: other.class, prop: p.name });
      }
      for (const [limit, offset] of [[100, 0], [2, 1], [5, 10_000]]) {
        const where = `e.${leanColumn(em(), cls, 'company')} = ?`;
        const e1 = em();
        const list = await leanList(e1, cls, companyId, where, [companyId], limit, offset, { related });
        expect(list).not.toBeNull();
        lists++;
        const page = await ormPage(em(), cls, where, [companyId], limit, offset);
        expect(list!.total).toBe(await ormCount(em(), cls, where, [companyId]));
        expect(list!.items.map((r: any) => r[meta.primaryKeys[0]])).toEqual(page.map((r: any) => r[meta.primaryKeys[0]]));
        page.forEach((m: any, i: number) => diffs.push(...compare(cls, meta, m, list!.items[i])));
        expect(e1.getUnitOfWork().getIdentityMap().values().length).toBe(0);
        for (const r of list!.related) {
          const target = r.spec.kind === 'one' ? (meta.properties as any)[r.spec.prop].targetMeta : t.orm.getMetadata().find((r.spec.entity as any).name)!;
          const tpk = target.primaryKeys[0];
          for (const [i, item] of page.entries()) {
            if (r.spec.kind === 'one') {
              const id = (item as any)[r.spec.prop]?.[tpk];
              const [expected] = id ? await leanByKeys(em(), { companyId }, target.class, tpk, [id], false) : [null];
              const got = r.values[i] as any;
              if (!expected || !got) {
                if (expected !== got && (expected ?? null) !== (got ?? null)) diffs.push(`${cls.name}.${r.spec.prop}[${i}]: ${!!expected} vs ${!!got}`);
              } else diffs.push(...compare(target.class, target, expected, got));
            } else {
              const expected = await leanByKeys(em(), { companyId }, target.class, r.spec.prop, [(item as any)[meta.primaryKeys[0]]], true);
              const got = r.values[i] as any[];
              expect(got.map((x) => x[tpk])).toEqual(expected.map((x: any) => x[tpk]));
              expected.forEach((x: any, j: number) => diffs.push(...compare(target.class, target, x, got[j])));
            }
            relatedCompared++;
          }
        }
      }
    }
    expect(diffs).toEqual([]);
    expect(lists).toBeGreaterThan(10);
    expect(relatedCompared).toBeGreaterThan(20);
  });

  it("computes a formula that reads only the row's company once per page (the invoices' company today)", async () => {
    const demo = await seedDemoIfEmpty(t.orm);
    const companyId = demo!.company.uuid;
    // Copies of the demo's invoice, so that the page has several rows.
    const conn = t.orm.em.getConnection() as any;
    await conn.execute(
      `insert into invoices select (jsonb_populate_record(null::invoices, to_jsonb(i) || jsonb_build_object('uuid', gen_random_uuid(), 'invoice_number', i.invoice_number || '-c' || n))).*
       from invoices i, generate_series(1, 3) n where i.company_uuid = ?`,
      [companyId],
    );
    const em = tenantFork(companyId);
    const spy = jest.spyOn(conn, 'executeQuery');
    const where = `e.${leanColumn(em, Invoice, 'company')} = ?`;
    const list = await leanList(em, Invoice, companyId, where, [companyId], 100, 0, { related: [{ kind: 'one', prop: 'customer' }] });
    const [sql, , ctx] = spy.mock.calls.find((c: any[]) => String(c[0]).includes('"invoices"'))! as any[];
    spy.mockRestore();
    expect(list!.items.length).toBeGreaterThanOrEqual(2);
    // The statement as run, analyzed: its lookup of the primary location runs once, not per row.
    const [{ 'QUERY PLAN': [plan] }] = await t.orm.em.getConnection().execute(`explain (analyze, format json) ${sql}`, ctx.params);
    const loops: number[] = [];
    const walk = (node: any) => {
      if (node['Relation Name'] === 'locations') loops.push(node['Actual Loops']);
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(plan.Plan);
    expect(loops).toEqual([1]);
    // And its value is the one each row's own formula gives.
    const page = await ormPage(tenantFork(companyId), Invoice, where, [companyId], 100, 0);
    expect(list!.items.map((i) => [i.uuid, i.companyToday, i.status])).toEqual(page.map((i) => [i.uuid, i.companyToday, i.status]));
  });

  it('reads a deep page (past the rows it reads by their keys first) as the ORM reads it', async () => {
    const demo = await seedDemoIfEmpty(t.orm);
    const companyId = demo!.company.uuid;
    await t.orm.em.getConnection().execute(
      `insert into customers (uuid, company_uuid, first_name, last_name, created_at)
       select gen_random_uuid(), ?, 'Deep', 'Page ' || n, now() - n * interval '1 second' from generate_series(1, 1030) as n`,
      [companyId],
    );
    const em = () => tenantFork(companyId);
    const where = `e.${leanColumn(em(), Customer, 'company')} = ? and e.${leanColumn(em(), Customer, 'deletedAt')} is null`;
    for (const offset of [999, 1000, 1020, 2000]) {
      const list = await leanList(em(), Customer, companyId, where, [companyId], 25, offset);
      const page = await ormPage(em(), Customer, where, [companyId], 25, offset);
      expect(list!.items.map((c) => c.uuid)).toEqual(page.map((c) => c.uuid));
      expect(list!.total).toBe(await ormCount(em(), Customer, where, [companyId]));
      const diffs: string[] = [];
      page.forEach((m: any, i: number) => diffs.push(...compare(Customer, t.orm.getMetadata().get('Customer'), m, list!.items[i])));
      expect(diffs).toEqual([]);
    }
  });

  it('runs list statements prepared, on the transaction\'s connection inside one, and list parameters through MikroORM', async () => {
    const demo = await seedDemoIfEmpty(t.orm);
    const companyId = demo!.company.uuid;
    const { runStatement } = await import('../../src/data/prepared');
    const where = (em: any) => `e.${leanColumn(em, Customer, 'company')} = ? and e.${leanColumn(em, Customer, 'lastName')} = ?`;
    await t.orm.em.fork().transactional(async (em) => {
      em.setFilterParams(TENANT_FILTER, { companyId });
      await em.getConnection().execute(`insert into customers (uuid, company_uuid, first_name, last_name) values (gen_random_uuid(), ?, 'Tx', 'Only')`, [companyId], 'run', em.getTransactionContext());
      // Uncommitted: only the transaction's connection sees it.
      expect((await leanList(em, Customer, companyId, where(em), [companyId, 'Only'], 10, 0))!.items.map((c) => c.firstName)).toEqual(['Tx']);
      throw new Error('roll back');
    }).catch((e) => expect(String(e)).toContain('roll back'));
    expect((await leanList(t.orm.em.fork(), Customer, companyId, where(t.orm.em), [companyId, 'Only'], 10, 0))!.total).toBe(0);
    // The same statement again (now prepared on its connection), and one with a list parameter.
    for (let i = 0; i < 3; i++) expect((await runStatement<any[]>(t.orm.em.fork(), 'select count(*)::int as n from customers where company_uuid = ?', [companyId]))[0].n).toBeGreaterThan(0);
    const names = ['Only', 'Nobody', ...(await t.orm.em.getConnection().execute(`select last_name from customers where company_uuid = ? limit 2`, [companyId])).map((r: any) => r.last_name)];
    const [{ n }] = await runStatement<any[]>(t.orm.em.fork(), 'select count(*)::int as n from customers where company_uuid = ? and last_name in (?)', [companyId, names]);
    expect(n).toBeGreaterThan(0);
  });

  it('loads by keys (the loaders) as em.find does: by primary key, and live children of each relation', async () => {
    const demo = await seedDemoIfEmpty(t.orm);
    const companyId = demo!.company.uuid;
    const em = () => tenantFork(companyId);
    const diffs: string[] = [];
    let compared = 0;
    for (const cls of entities as any[]) {
      const meta = t.orm.getMetadata().get(cls.name);
      if (!meta.filters[TENANT_FILTER]) continue;
      const pk = meta.primaryKeys[0];
      const all = await t.orm.em.fork().find(cls, {}, { filters: false });
      // Another company's key among them must find nothing.
      const keys = [...all.map((r: any) => r[pk]), '00000000-0000-4000-8000-000000000000'];
      const managed = await em().find(cls, { [pk]: { $in: keys } }, { orderBy: { [pk]: 'asc' } });
      const lean = (await leanByKeys(em(), { companyId }, cls, pk, keys, false)).sort((a: any, b: any) => (a[pk] < b[pk] ? -1 : 1));
      expect(lean).toHaveLength(managed.length);
      managed.forEach((m: any, i: number) => diffs.push(...compare(cls, meta, m, lean[i])));
      compared += managed.length;
      if (!meta.properties.deletedAt || !meta.properties.createdAt) continue;
      for (const rel of meta.relations.filter((p: any) => p.kind === ReferenceKind.MANY_TO_ONE && p.name !== 'company')) {
        const parents = [...new Set(all.map((r: any) => r[rel.name]?.[rel.targetMeta!.primaryKeys[0]]).filter(Boolean))] as string[];
        if (!parents.length) continue;
        const orderBy = { createdAt: 'desc', [pk]: 'desc' };
        const m2 = await em().find(cls, { [rel.name]: { $in: parents }, deletedAt: null }, { orderBy });
        const l2 = await leanByKeys(em(), { companyId }, cls, rel.name, parents, true);
        expect(l2.map((r: any) => r[pk])).toEqual(m2.map((r: any) => r[pk]));
        m2.forEach((m: any, i: number) => diffs.push(...compare(cls, meta, m, l2[i])));
        compared += m2.length;
      }
    }
    expect(diffs).toEqual([]);
    expect(compared).toBeGreaterThan(10);
  });

  it('loads by keys as a named prepared statement, with the rows of DB_PREPARED_STATEMENTS=false (the statement kept by SQL\'s PREPARE)', async () => {
    const demo = await seedDemoIfEmpty(t.orm);
    const companyId = demo!.company.uuid;
    const { usePreparedStatements } = await import('../../src/data/prepared');
    const { keyedStatement } = await import('../../src/data/keyed');
    const diffs: string[] = [];
    let compared = 0;
    for (const cls of entities as any[]) {
      const meta = t.orm.getMetadata().get(cls.name);
      if (!meta.filters[TENANT_FILTER] || !keyedStatement(t.orm.em, cls.name, meta.primaryKeys[0], false)) continue;
      const pk = meta.primaryKeys[0];
      const keys = (await t.orm.em.fork().find(cls, {}, { filters: false })).map((r: any) => r[pk]);
      // The same statement through the transaction's connection, which then holds it prepared.
      const prepared = await t.orm.em.fork().transactional(async (em) => {
        const rows = await leanByKeys(em, { companyId }, cls, pk, keys, false);
        const held = await em.getConnection().execute(`select statement from pg_prepared_statements where name like 'fsc\\_%' and statement like ?`, [`% from "${meta.tableName}" as e where % and e."${meta.properties[pk].fieldNames[0]}" = any($2::%`], 'all', em.getTransactionContext());
        expect(held).toHaveLength(1);
        return rows;
      });
      // DB_PREPARED_STATEMENTS=false, outside a transaction: EXECUTE of the statement kept by SQL's PREPARE (src/data/prepared.ts).
      usePreparedStatements(false);
      const plain = await leanByKeys(tenantFork(companyId), { companyId }, cls, pk, keys, false).finally(() => usePreparedStatements(true));
      expect(prepared).toHaveLength(plain.length);
      const byKey = new Map(plain.map((r: any) => [r[pk], r]));
      prepared.forEach((r: any) => diffs.push(...compare(cls, meta, byKey.get(r[pk]), r)));
      compared += prepared.length;
    }
    expect(diffs).toEqual([]);
    expect(compared).toBeGreaterThan(10);
  });

  it('lean records are snapshots: changing one writes nothing', async () => {
    const demo = await seedDemoIfEmpty(t.orm);
    const em = t.orm.em.fork();
    em.setFilterParams(TENANT_FILTER, { companyId: demo!.company.uuid });
    const [c] = await leanFind(em, Customer, {}, { orderBy: { createdAt: 'asc' } });
    expect(Object.getPrototypeOf(Object.getPrototypeOf(c))).toBe(Customer.prototype);
    c.firstName = 'Changed';
    await em.flush();
    const fresh = await t.orm.em.fork().findOneOrFail(Customer, c.uuid, { filters: false });
    expect(fresh.firstName).not.toBe('Changed');
  });
});

describe('API key lookup', () => {
  it('gives the key, company and user findOne with populate gives, as managed entities, in one statement', async () => {
    const demo = await seedDemoIfEmpty(t.orm);
    const { authenticate } = await import('../../src/auth/authenticate');
    const { ApiKey } = await import('../../src/modules/api-key/api-key.entity');
    const ctx = await authenticate(t.orm, { headers: { authorization: `Bearer ${demo!.apiKey}` } } as any, 'r1');
    const expected = await t.orm.em.fork().findOneOrFail(ApiKey, { id: ctx.apiKey.id }, { populate: ['company', 'user'], filters: false });
    const plain = (e: object) => JSON.parse(JSON.stringify(e));
    // (toJSON of a populated findOne nests the relations; the key's columns are what is compared)
    expect(plain(ctx.apiKey)).toEqual({ ...plain(expected), company: expected.company.uuid, user: expected.user.id });
    expect(plain(ctx.company)).toEqual(plain(expected.company));
    expect(plain(ctx.user)).toEqual(plain(expected.user));
    expect(ctx.apiKey.company).toBe(ctx.company);
    expect(ctx.apiKey.user).toBe(ctx.user);
    expect(ctx.em.getUnitOfWork().getById('Company', ctx.company.uuid)).toBe(ctx.company);
    expect(ctx.em.getUnitOfWork().getById('User', ctx.user.id)).toBe(ctx.user);
  });

  it('makes the managed records when first used: never for a read that does not need them, before any write', async () => {
    const demo = await seedDemoIfEmpty(t.orm);
    const { authenticate, ensureManaged } = await import('../../src/auth/authenticate');
    const ctx = await authenticate(t.orm, { headers: { authorization: `Bearer ${demo!.apiKey}` } } as any, 'r2');
    const identityMap = () => ctx.em.getUnitOfWork().getIdentityMap().values().length;
    // What access checks, logs and lists need is there without them.
    expect(ctx.companyId).toBe(demo!.company.uuid);
    expect(ctx.key.id).toBeTruthy();
    expect(identityMap()).toBe(0);
    // Apollo hands resolvers a copy of the context (same prototype, own properties copied).
    const apolloCopy = Object.assign(Object.create(Object.getPrototypeOf(ctx)), ctx);
    expect(identityMap()).toBe(0);
    expect(apolloCopy.company.uuid).toBe(demo!.company.uuid);
    expect(identityMap()).toBe(3);
    expect(apolloCopy.company).toBe(ctx.company);
    // A transaction's copy made after ensureManaged carries them.
    ensureManaged(ctx);
    const tx = { ...ctx, em: ctx.em };
    expect(tx.company).toBe(ctx.company);
    expect(tx.user).toBe(ctx.user);
    expect(tx.apiKey).toBe(ctx.apiKey);
  });
});
