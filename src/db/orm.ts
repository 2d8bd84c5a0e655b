import { MikroORM, Options, PostgreSqlDriver, ReferenceKind } from '@mikro-orm/postgresql';
import { LIVE_FILTER } from '../data/base.entity';
import { entities } from './entities';
import { EventActorSubscriber } from '../modules/event/event.actor';
import { SweepAfterCommit } from './write-sweep';

export type Orm = MikroORM;

export function ormOptions(clientUrl: string, poolMax = 10, debugSql = false): Options {
  return {
    driver: PostgreSqlDriver,
    clientUrl,
    entities,
    // No extensions: the first orm.getMigrator() loads @mikro-orm/migrations (MikroORM requires it
    // then), so a process or test that never migrates does not load it.
    // Each transaction records who makes its changes, for the event log (docs/events.md).
    // After each commit, the write marks become the company's WAL position (src/db/write-sweep.ts).
    subscribers: [new EventActorSubscriber(), new SweepAfterCommit()],
    // migrationsList: set by initOrm, read when the migrator is first made.
    migrations: { silent: true, transactional: true, allOrNothing: true, snapshot: false, tableName: 'mikro_orm_migrations' },
    pool: { min: 0, max: poolMax },
    discovery: {
      warnWhenNoEntities: false,
      // The live filter (src/data/base.entity.ts) holds the rows read, never their relations: a
      // many-to-one to a soft-deleted record still finds it (MikroORM would join it away).
      onMetadata: (meta) => {
        for (const prop of meta.relations) {
          if (prop.kind === ReferenceKind.MANY_TO_ONE || prop.kind === ReferenceKind.ONE_TO_ONE) prop.filters = { ...(typeof prop.filters === 'object' && !Array.isArray(prop.filters) ? prop.filters : {}), [LIVE_FILTER]: false };
        }
      },
    },
    forceUtcTimezone: true,
    // Each request works on its own fork; the global EntityManager must never be used by one.
    allowGlobalContext: false,
    // DEBUG_SQL, parsed and checked with the other settings (config.debugSql).
    debug: debugSql,
    ignoreUndefinedInQuery: false,
  };
}

export async function initOrm(clientUrl: string, poolMax?: number, debugSql?: boolean): Promise<Orm> {
  const orm = await MikroORM.init(ormOptions(clientUrl, poolMax, debugSql));
  // The migrations, and @mikro-orm/migrations that they extend (some 300 modules), load with the
  // first orm.getMigrator(), not in every process and test that never migrates.
  Object.defineProperty(orm.config.get('migrations'), 'migrationsList', {
    get: () => (require('../../migrations') as typeof import('../../migrations')).migrationsList,
    enumerable: true,
    configurable: true,
  });
  // knex's pg dialect puts an 'error' listener on every connection it opens, so a database that
  // stops (shutdown, failover) marks connections dead instead of crashing the process.
  return orm;
}

/** PostgreSQL extensions the migrations create (btree_gist: the visits' double-booking constraint, docs/visits.md). */
export const REQUIRED_EXTENSIONS = ['btree_gist'];

/** Fails the start with a message naming the extensions this PostgreSQL server cannot provide. */
export async function requireExtensions(orm: Orm, names: readonly string[] = REQUIRED_EXTENSIONS): Promise<void> {
  const rows = await orm.em.getConnection().execute<{ name: string }[]>(`select name from pg_available_extensions where name in (?)`, [[...names]]);
  const missing = names.filter((n) => !rows.some((r) => r.name === n));
  if (missing.length) {
    throw new Error(
      `PostgreSQL extension ${missing.join(', ')} is not available on this server (needed by the visits' double-booking constraint, docs/visits.md): ` +
        `install the server's contrib modules (Debian/Ubuntu: the postgresql-<version> package ships them; RHEL: postgresql-contrib), or run without DATABASE_URL to use the embedded PostgreSQL`,
    );
  }
}

const MIGRATION_LOCK = 7_246_001; // pg_advisory_lock key shared by every starting process

/** Applies pending migrations under an advisory lock so that concurrent starts are safe. */
export async function migrate(orm: Orm): Promise<string[]> {
  return withAdvisoryLock(orm, MIGRATION_LOCK, async () => {
    const done = await orm.getMigrator().up();
    return done.map((m) => m.name);
  });
}

/**
 * Migrations over `url` when it is another connection than the ORM's (DATABASE_DIRECT_URL behind a
 * pooler in transaction mode, where a session advisory lock would stay on whichever server
 * connection took it): a one-connection ORM of its own, closed afterwards.
 */
export async function migrateThrough(url: string, orm: Orm): Promise<string[]> {
  if (url === orm.config.get('clientUrl')) return migrate(orm);
  // Two connections: one holds the advisory lock, the other runs the migrations.
  const direct = await initOrm(url, 2);
  try {
    return await migrate(direct);
  } finally {
    await direct.close(true);
  }
}

export async function withAdvisoryLock<T>(orm: Orm, key: number, fn: () => Promise<T>): Promise<T> {
  const knex = orm.em.getConnection().getKnex();
  const conn = await knex.client.acquireConnection();
  try {
    await conn.query('select pg_advisory_lock($1)', [key]);
    try {
      return await fn();
    } finally {
      await conn.query('select pg_advisory_unlock($1)', [key]);
    }
  } finally {
    await knex.client.releaseConnection(conn);
  }
}
