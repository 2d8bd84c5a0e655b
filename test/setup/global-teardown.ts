import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';

export default async function globalTeardown(): Promise<void> {
  const serverUrl = process.env.FSC_TEST_SERVER_URL;
  const run = process.env.FSC_TEST_RUN;
  if (serverUrl && run) {
    // The run's databases (a template and one per spec file), dropped a few at a time: drops that
    // wait for a checkpoint together share it.
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    const { rows } = await admin.query(`select datname from pg_database where datname like $1`, [`${run}\\_%`]);
    await admin.end();
    const names: string[] = rows.map((r) => r.datname);
    await Promise.all(
      Array.from({ length: Math.min(8, names.length) }, async () => {
        const c = new Client({ connectionString: serverUrl });
        await c.connect();
        try {
          for (let name = names.pop(); name; name = names.pop()) await c.query(`drop database if exists ${c.escapeIdentifier(name)} with (force)`);
        } finally {
          await c.end();
        }
      }),
    );
  }
  const embedded = (globalThis as any).__FSC_EMBEDDED__;
  if (embedded) {
    await embedded.pg.stop();
    fs.rmSync(embedded.dir, { recursive: true, force: true });
  }
  // The run's temporary folder (global-setup.ts), with whatever a test left in it.
  const tmp = process.env.FSC_TEST_TMPDIR;
  if (tmp && path.basename(tmp).startsWith('fsc-run-')) fs.rmSync(tmp, { recursive: true, force: true });
}
