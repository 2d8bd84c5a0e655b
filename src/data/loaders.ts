import DataLoader from 'dataloader';
import { wrap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Related } from './list';
import { leanByKeys } from './keyed';
import type { TenantScope } from './tenant';

type Cls<T = any> = new (...args: any[]) => T;

/** A value, or the promise of one. */
export type Awaitable<T> = T | Promise<T>;

/**
 * Per-request batch loaders, so that related records load in a fixed number of statements
 * whatever the page size. Records by id include soft-deleted ones (embedded summaries show their
 * targets); relation lists hold the records that are not deleted, newest first. Records are lean
 * read-only instances (src/data/record.ts, src/data/keyed.ts), loaded with the statements em.find would run.
 *
 * A list given the relations of its records that the request will ask for (ListInclude: the
 * GraphQL selection, the REST embeds, passed to the service as an argument) loads them with its
 * page (leanList) and primes these loaders, so that the relation fields find them here. A primed entry holds what its loader would have loaded for the same key (the record with
 * that id; the live records of that parent, newest first), so an expectation that is not used
 * costs work, never a wrong answer. A GraphQL list may prime records read in part: only the
 * columns that the operation's selections of that type read, anywhere in it
 * (src/graphql/prefetch.ts), so every field of the operation finds what it reads. Primed records
 * are answered at once (not through a promise): a page of 100 invoices asks for 200 relations.
 */
export class Loaders {
  private readonly byId = new Map<Cls, DataLoader<string, any>>();
  private readonly lists = new Map<string, DataLoader<string, any[]>>();
  /** Records loaded with a list (see prime), by id and by parent. */
  private readonly primedById = new Map<Cls, Map<string, any>>();
  private readonly primedLists = new Map<string, Map<string, any[]>>();
  private readonly named = new Map<string, DataLoader<any, any>>();
  /** Records as this request's writes left them (see written). */
  private readonly writtenById = new Map<Cls, Map<string, any>>();

  constructor(
    private readonly em: EntityManager,
    /** The request's tenant scope: every load is of its company's records. */
    private readonly scope: TenantScope,
  ) {}

  one<T>(entity: Cls<T>, id: string | null | undefined): Awaitable<T | null> {
    if (!id) return null;
    // Records come primed by a list (queries, which change nothing) or, in a request that writes,
    // as the managed entity the request left them (the key's user), or as its write left them (written).
    const primed = this.primedById.get(entity)?.get(id);
    if (primed !== undefined) return primed;
    const known = this.em.getUnitOfWork().getById(entity.name, id as never) as (T & object) | undefined;
    if (known && wrap(known).isInitialized()) return known;
    const written = this.writtenById.get(entity)?.get(id);
    if (written !== undefined) return written;
    return this.byIdLoader(entity).load(id);
  }

  /**
   * A record as this request's own write reads or leaves it, held as a lean instance instead of a
   * managed entity (an invoice create's job and customer, src/modules/invoice/invoice.write.ts):
   * `one` answers it where the request holds no managed, loaded entity of that id, as it would
   * have answered the managed entity the write used to leave. A managed entity read later in the
   * request (an update of the job in a later mutation) is answered instead.
   */
  written<T extends object>(entity: Cls<T>, record: T): void {
    inner(this.writtenById, entity).set(this.keyOf(entity, record), record);
  }

  /** Children of a parent through a foreign-key relation (e.g. Job by `customer`), newest first. */
  children<T>(entity: Cls<T>, relation: string, parentId: string, limit = 100): Awaitable<T[]> {
    const take = (items: T[]) => items.slice(0, Math.max(0, Math.min(limit, 100)));
    const primed = this.primedLists.get(`${entity.name}.${relation}`)?.get(parentId);
    if (primed) return take(primed);
    return this.listLoader(entity, relation).load(parentId).then(take);
  }

  /**
   * A loader of this request for a relation read by its own statement (User.visits(from, to)):
   * one per name, so the calls of one tick share one batch.
   */
  batch<K, V>(name: string, load: (keys: readonly K[]) => Promise<V[]>): DataLoader<K, V> {
    let loader = this.named.get(name);
    if (!loader) this.named.set(name, (loader = new DataLoader<K, V>(load as never)));
    return loader as DataLoader<K, V>;
  }

  /** Records loaded with a list, as the loaders would have loaded them: `values[i]` belongs to `records[i]`. */
  prime(entity: Cls, records: readonly any[], related: { spec: Related; values: unknown[] }): void {
    const { spec, values } = related;
    if (spec.kind === 'one') {
      for (const v of values as any[]) {
        if (!v) continue;
        const cls = v.constructor as Cls;
        inner(this.primedById, cls).set(this.keyOf(cls, v), v);
      }
      return;
    }
    const key = `${(spec.entity as Cls).name}.${spec.prop}`;
    const lists = inner(this.primedLists, key);
    const pk = this.em.getMetadata().find(entity.name)!.primaryKeys[0];
    records.forEach((r, i) => lists.set(r[pk], values[i] as any[]));
  }

  /** A record's primary key. */
  private keyOf(entity: Cls, record: object): string {
    return (record as Record<string, string>)[this.em.getMetadata().find(entity.name)!.primaryKeys[0]];
  }

  private byIdLoader(entity: Cls): DataLoader<string, any> {
    let loader = this.byId.get(entity);
    if (!loader) {
      const meta = this.em.getMetadata().find(entity.name)!;
      const pk = meta.primaryKeys[0];
      loader = new DataLoader<string, any>(async (ids) => {
        const rows = await leanByKeys(this.em, this.scope, entity, pk, ids, false);
        const map = new Map(rows.map((r: any) => [r[pk], r]));
        return ids.map((id) => map.get(id) ?? null);
      });
      this.byId.set(entity, loader);
    }
    return loader;
  }

  private listLoader(entity: Cls, relation: string): DataLoader<string, any[]> {
    const key = `${entity.name}.${relation}`;
    let loader = this.lists.get(key);
    if (!loader) {
      loader = new DataLoader<string, any[]>(async (ids) => {
        const rows = await leanByKeys(this.em, this.scope, entity, relation, ids, true);
        const groups = new Map<string, any[]>(ids.map((id) => [id, []]));
        for (const r of rows as any[]) {
          const parent = r[relation];
          groups.get(parent?.uuid ?? parent?.id ?? parent)?.push(r);
        }
        return ids.map((id) => groups.get(id)!);
      });
      this.lists.set(key, loader);
    }
    return loader;
  }
}

/** The map under `key` in `maps`, made empty when there is none yet. */
function inner<K, V>(maps: Map<K, Map<string, V>>, key: K): Map<string, V> {
  let map = maps.get(key);
  if (!map) maps.set(key, (map = new Map()));
  return map;
}
