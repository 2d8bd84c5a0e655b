import type { EntityManager } from '@mikro-orm/postgresql';
import { actorCte } from '../modules/event/event.actor';
import { insertParts } from './entity-sql';
import { markClean } from './orm-adapter';
import { runStatement } from './prepared';

/**
 * Inserts a new entity in one statement, as `em.persist(entity); await em.flush()` would, and makes
 * it a managed, clean entity of `em`. A flush of a lone insert is four round trips (begin, the
 * actor's `set_config`, the insert, commit); this is one: outside a transaction the insert runs in
 * autocommit with the actor set by the same statement (a CTE the insert reads its row from), so the
 * event triggers, which run at the statement's end inside its transaction, record the same actor
 * (docs/events.md). Inside a transaction (an Idempotency-Key) it runs in that transaction, whose
 * actor MikroORM set when it began; setting it again to the same value changes nothing.
 * A prepared statement, its values as parameters (src/data/prepared.ts).
 * The row is the one a flush inserts: every column, as insertParts writes them
 * (test/data/insert-new.spec.ts compares both paths). Use it only for an entity whose creation
 * writes nothing else (no collections to cascade, nothing else persisted and not flushed).
 */
export async function insertNew(em: EntityManager, entity: object): Promise<void> {
  const meta = em.getMetadata().get(entity.constructor.name);
  const row = insertParts(em, entity);
  const actor = actorCte(em);
  const table = `"${meta.tableName}"`;
  const sql = actor
    ? `with ${actor.sql} insert into ${table} (${row.columns}) select ${row.values} from "actor"`
    : `insert into ${table} (${row.columns}) values (${row.values})`;
  // Prepared (src/data/prepared.ts): one text per entity, the values as parameters.
  await runStatement(em, sql, actor ? [...actor.params, ...row.params] : row.params);
  markClean(em, entity);
}
