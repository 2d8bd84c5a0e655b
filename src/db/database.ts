import { Client } from 'pg';
import { Config, ConfigError } from '../config';
import { ensureDatabase, startEmbeddedDatabase } from './embedded';

export const EMBEDDED_DB_NAME = 'field_service_crm';

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  /** Stops the embedded cluster if this process started it. */
  stop(): Promise<void>;
}

/** DATABASE_URL when set, else the embedded PostgreSQL under DATA_DIR. */
export async function openDatabase(config: Config, log: (msg: string) => void = () => undefined): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    await requireDatabase(config.databaseUrl, config.databaseCreate);
    return { url: config.databaseUrl, embedded: false, stop: async () => undefined };
  }
  const pg = await startEmbeddedDatabase(config.dataDir, log);
  try {
    const url = await ensureDatabase(pg.url, EMBEDDED_DB_NAME);
    return { url, embedded: true, stop: () => pg.stop() };
  } catch (err) {
    await pg.stop().catch(() => undefined);
    throw err;
  }
}

/**
 * The database DATABASE_URL names must exist: a misspelled name would otherwise be created empty,
 * migrated and served (MikroORM creates missing databases). DATABASE_CREATE=true creates it.
 */
async function requireDatabase(url: string, create: boolean): Promise<void> {
  const client = new Client({ connectionString: url });
  try {
    await client.connect();
  } catch (err) {
    if ((err as { code?: string }).code !== '3D000') throw err;
    const name = decodeURIComponent(new URL(url).pathname.slice(1)) || 'postgres';
    if (!create) {
      throw new ConfigError(`DATABASE_URL names the database "${name}", which does not exist on that server: create it, correct the name, or set DATABASE_CREATE=true to have it created`);
    }
    const server = new URL(url);
    server.pathname = '/postgres';
    await ensureDatabase(server.toString(), name);
    return;
  } finally {
    await client.end().catch(() => undefined);
  }
}
