import type { EntityManager } from '@mikro-orm/postgresql';
import { actorCte } from '../modules/event/event.actor';
import { insertParts } from './entity-sql';
import { markClean, onPooledConnection } from './orm-adapter';
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
 *
 * On an EntityManager given to insertLater (an import's batch), the row waits instead for the
 * batch's one multi-row insert (PendingInserts.flush): a create that calls insertNew must read
 * nothing an earlier create of the same batch wrote.
 */
export async function insertNew(em: EntityManager, entity: object): Promise<void> {
  const row = insertParts(em, entity);
  const pending = waiting.get(em);
  if (pending) {
    pending.add(em, entity, row);
    markClean(em, entity);
    return;
  }
  const meta = em.getMetadata().get(entity.constructor.name);
  const actor = actorCte(em);
  const table = `"${meta.tableName}"`;
  const sql = actor
    ? `with ${actor.sql} insert into ${table} (${row.columns}) select ${row.values} from "actor"`
    : `insert into ${table} (${row.columns}) values (${row.values})`;
  // Prepared (src/data/prepared.ts): one text per entity, the values as parameters.
  await runStatement(em, sql, actor ? [...actor.params, ...row.params] : row.params);
  markClean(em, entity);
}

/** PostgreSQL takes at most 65,535 parameters in one statement. */
const MAX_PARAMS = 65_535;

/**
 * The rows insertNew was given on the EntityManagers of one import batch (insertLater), in order,
 * written by `flush` in one `insert … values (…), (…)` per table (split only past PostgreSQL's
 * parameter limit): the same rows, each value the same parameter as insertNew's, so the same
 * row triggers (external ids) fire row by row in the same order and the statement triggers
 * (events, kept counts) see all the rows at once and write what they would have row by row (the
 * events in the rows' order). Only in a transaction: its actor was set when it began, as for
 * insertNew inside one. A row the database refuses fails the whole statement; the batch then goes
 * back to its savepoint (src/modules/import/import.batch.ts).
 */
export class PendingInserts {
  private rows: Array<{ table: string; columns: string; values: string; params: unknown[] }> = [];

  get size(): number {
    return this.rows.length;
  }

  add(em: EntityManager, entity: object, row: { columns: string; values: string; params: unknown[] }): void {
    const table = `"${em.getMetadata().get(entity.constructor.name).tableName}"`;
    this.rows.push({ table, ...row });
  }

  /** Writes the waiting rows on `em`'s transaction, in order, and forgets them. */
  async flush(em: EntityManager): Promise<void> {
    const trx = em.getTransactionContext();
    if (!trx) throw new Error('PendingInserts.flush outside a transaction');
    const rows = this.rows;
    this.rows = [];
    for (let i = 0; i < rows.length; ) {
      // A run of rows of one table and columns (one entity), at most MAX_PARAMS values.
      const first = rows[i];
      let j = i;
      let params = 0;
      while (j < rows.length && rows[j].table === first.table && rows[j].columns === first.columns && params + rows[j].params.length <= MAX_PARAMS) params += rows[j++].params.length;
      const run = rows.slice(i, j);
      i = j;
      let n = 0;
      const values = run.map((r) => `(${r.values.replace(/\?/g, () => `$${++n}`)})`).join(', ');
      const text = `insert into ${first.table} (${first.columns}) values ${values}`;
      const all = run.flatMap((r) => r.params);
      // Not prepared: its text changes with the number of rows. Its values travel as parameters,
      // converted by the driver as insertNew's are.
      await onPooledConnection(em, text, all, 'all', trx, (pg) => pg.query({ text, values: all }));
    }
  }
}

const waiting = new WeakMap<EntityManager, PendingInserts>();

/** insertNew on `em` adds its row to `pending` instead of inserting it (an import batch's rows, src/modules/import/import.batch.ts). */
export function insertLater(em: EntityManager, pending: PendingInserts): void {
  waiting.set(em, pending);
}
