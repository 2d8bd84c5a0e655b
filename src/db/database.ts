import type { Config } from '../config';
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
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: async () => undefined };
  const pg = await startEmbeddedDatabase(config.dataDir, log);
  try {
    const url = await ensureDatabase(pg.url, EMBEDDED_DB_NAME);
    return { url, embedded: true, stop: () => pg.stop() };
  } catch (err) {
    await pg.stop().catch(() => undefined);
    throw err;
  }
}
