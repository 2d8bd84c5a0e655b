import DataLoader from 'dataloader';
import { helper } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { leanByKeys } from '../core/lean';

type Cls<T = any> = new (...args: any[]) => T;

/**
 * Per-request batch loaders, so that related records load in a fixed number of statements
 * whatever the page size. Records by id include soft-deleted ones (embedded summaries show their
 * targets); relation lists hold the records that are not deleted, newest first. Records are lean
 * read-only instances (src/core/lean.ts), loaded with the statements em.find would run.
 */
export class Loaders {
  private readonly byId = new Map<Cls, DataLoader<string, any>>();
  private readonly lists = new Map<string, DataLoader<string, any[]>>();

  constructor(private readonly em: EntityManager) {}

  one<T>(entity: Cls<T>, id: string | null | undefined): Promise<T | null> {
    if (!id) return Promise.resolve(null);
    // A record this request has loaded already (a create's job and customer, the key's user) is
    // the managed entity as the request left it: not read again.
    const known = this.em.getUnitOfWork().getById(entity.name, id as never) as (T & object) | undefined;
    if (known && helper(known).__initialized) return Promise.resolve(known);
    let loader = this.byId.get(entity);
    if (!loader) {
      const meta = this.em.getMetadata().find(entity.name)!;
      const pk = meta.primaryKeys[0];
      loader = new DataLoader<string, any>(async (ids) => {
        const rows = await leanByKeys(this.em, entity, pk, ids, false);
        const map = new Map(rows.map((r: any) => [r[pk], r]));
        return ids.map((id) => map.get(id) ?? null);
      });
      this.byId.set(entity, loader);
    }
    return loader.load(id);
  }

  /** Children of a parent through a foreign-key relation (e.g. Job by `customer`), newest first. */
  children<T>(entity: Cls<T>, relation: string, parentId: string, limit = 100): Promise<T[]> {
    const key = `${entity.name}.${relation}`;
    let loader = this.lists.get(key);
    if (!loader) {
      loader = new DataLoader<string, any[]>(async (ids) => {
        const rows = await leanByKeys(this.em, entity, relation, ids, true);
        const groups = new Map<string, any[]>(ids.map((id) => [id, []]));
        for (const r of rows as any[]) {
          const parent = r[relation];
          groups.get(parent?.uuid ?? parent?.id ?? parent)?.push(r);
        }
        return ids.map((id) => groups.get(id)!);
      });
      this.lists.set(key, loader);
    }
    return loader.load(parentId).then((items) => items.slice(0, Math.max(0, Math.min(limit, 100))));
  }
}
