import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedDatabase } from '../../src/db/embedded';
import { execFileSync } from 'node:child_process';

// One PostgreSQL for the run: the server of DATABASE_URL, or an embedded cluster of its own in a
// temporary directory. A template database is migrated once; every worker clones it.
export default async function globalSetup(): Promise<void> {
  // The tests that start server processes run the compiled server, as `npm start` does: build it.
  execFileSync(process.execPath, [path.resolve(__dirname, '../../scripts/build.js'), '--quiet'], { stdio: ['ignore', 'ignore', 'inherit'] });
  // Every temporary folder of the run (the tests' own, the processes they start, the embedded
  // cluster) goes under one folder of the run, which the teardown removes: a test that ends early
  // leaves nothing in /tmp. The workers and their children inherit TMPDIR.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-run-'));
  fs.chmodSync(tmp, 0o755);
  process.env.FSC_TEST_TMPDIR = tmp;
  process.env.TMPDIR = tmp;
  const run = `fsc_t${process.pid}`;
  let serverUrl: string;
  if (process.env.DATABASE_URL) {
    serverUrl = process.env.DATABASE_URL;
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-test-'));
    fs.chmodSync(dir, 0o755);
    const pg = await startEmbeddedDatabase(dir);
    (globalThis as any).__FSC_EMBEDDED__ = { pg, dir };
    serverUrl = pg.url;
    await throwawayDurability(serverUrl);
  }
  const template = `${run}_tpl`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${template}`);
  await admin.query(`create database ${template}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${template}`;
  // Migrated in a child process, by the compiled CLI that `npm run migrate` runs (built above):
  // loading the ORM here would share its metadata with the test realm.
  execFileSync(process.execPath, [path.resolve(__dirname, '../../dist/src/cli/migrate.js')], {
    env: { ...process.env, DATABASE_URL: url.toString() },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.env.FSC_TEST_SERVER_URL = serverUrl;
  process.env.FSC_TEST_RUN = run;
}

/**
 * The run's own cluster is thrown away at the end: commits need not wait for the disk. Without
 * fsync and with asynchronous commits a test's write returns as soon as PostgreSQL has it in
 * memory; what the tests check (results, rows, statements, locks) is the same. Never done to the
 * server of DATABASE_URL, which is not ours.
 */
async function throwawayDurability(serverUrl: string): Promise<void> {
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  for (const setting of ['fsync = off', 'synchronous_commit = off', 'full_page_writes = off']) await admin.query(`alter system set ${setting}`);
  await admin.query('select pg_reload_conf()');
  await admin.end();
}
