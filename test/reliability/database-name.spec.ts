import { Client } from 'pg';
import { runMain, startServer } from '../helpers/server-process';

// A misspelled database name in DATABASE_URL stops the start with a message naming the setting;
// nothing is created. DATABASE_CREATE=true creates it (docs/access-and-operations.md).
const server = process.env.FSC_TEST_SERVER_URL!;
const name = `${process.env.FSC_TEST_RUN}_typo`;
const urlOf = (db: string) => Object.assign(new URL(server), { pathname: `/${db}` }).toString();

async function exists(db: string): Promise<boolean> {
  const c = new Client({ connectionString: server });
  await c.connect();
  try {
    return !!(await c.query('select 1 from pg_database where datname = $1', [db])).rowCount;
  } finally {
    await c.end();
  }
}

afterAll(async () => {
  const c = new Client({ connectionString: server });
  await c.connect();
  await c.query(`drop database if exists ${name} with (force)`);
  await c.end();
});

it('a DATABASE_URL naming a missing database stops the start and creates nothing', async () => {
  const run = runMain({ DATABASE_URL: urlOf(name), MIGRATE: 'true' });
  expect(await run.exited).toBe(1);
  expect(run.stderr()).toMatch(/DATABASE_URL names the database ".*_typo", which does not exist.*DATABASE_CREATE=true/);
  expect(await exists(name)).toBe(false);
});

it('DATABASE_CREATE=true creates it, migrates it and serves', async () => {
  const s = await startServer({ DATABASE_URL: urlOf(name), DATABASE_CREATE: 'true', MIGRATE: 'true' });
  try {
    expect(await exists(name)).toBe(true);
    expect((await fetch(`http://127.0.0.1:${s.port}/ready`)).status).toBe(200);
  } finally {
    s.kill('SIGTERM');
    await s.exited;
  }
});
