// First: MikroORM's async storages, made before anything loads MikroORM (src/db/settling-storage.ts).
import '../db/settling-storage';
import 'reflect-metadata';
import { loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { initOrm, migrate } from '../db/orm';

// `npm run migrate [-- down]`: applies pending migrations (or reverts the last one) on the
// configured database; prints one JSON object.
async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase(config);
  // Migrations take a session advisory lock: the session connection behind a pooler (DATABASE_DIRECT_URL).
  const orm = await initOrm(db.embedded ? db.url : (config.databaseDirectUrl ?? db.url), 2, config.debugSql);
  try {
    if (process.argv[2] === 'down') {
      const reverted = await orm.getMigrator().down();
      process.stdout.write(JSON.stringify({ reverted: reverted.map((m) => m.name) }) + '\n');
    } else {
      process.stdout.write(JSON.stringify({ applied: await migrate(orm) }) + '\n');
    }
  } finally {
    await orm.close(true);
    await db.stop();
  }
}

main().catch((err) => {
  process.stdout.write(JSON.stringify({ error: { code: 'INTERNAL', message: err instanceof Error ? err.message : String(err) } }) + '\n');
  process.exit(1);
});
