import type { EntityManager } from '@mikro-orm/postgresql';
import { columnOf, selectOf, tableOf } from '../../src/data/columns';

// The plain path the read model's lists are compared with: the rows em.find selects for an entity
// (src/data/columns.ts selectOf) under the same conditions and order, hydrated by MikroORM
// (em.map: managed entities), and their count.

/** One page of the rows matching `where` (SQL on alias `e`), in `order` (default newest first), as managed entities. */
export async function ormPage<T extends object>(em: EntityManager, entity: new (...args: any[]) => T, where: string, params: unknown[], limit: number, offset: number, order: string | null = null): Promise<T[]> {
  const meta = em.getMetadata().get(entity.name);
  const by = order ?? `e.${columnOf(meta, 'createdAt')} desc, e.${columnOf(meta, meta.primaryKeys[0])} desc`;
  const rows = await em.getConnection().execute(`${selectOf(meta)} where ${where} order by ${by} limit ? offset ?`, [...params, limit, offset]);
  return rows.map((row: Record<string, unknown>) => em.map(entity, row));
}

/** How many rows match `where` (SQL on alias `e`). */
export async function ormCount(em: EntityManager, entity: new (...args: any[]) => unknown, where: string, params: unknown[]): Promise<number> {
  const meta = em.getMetadata().get(entity.name);
  const [row] = await em.getConnection().execute(`select count(*) as count from ${tableOf(meta)} as e where ${where}`, params);
  return Number(row.count);
}
