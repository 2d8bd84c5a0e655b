import { Client } from 'pg';
import { cpuMsOf, databaseCpuMs } from '../../bench/procs';
import { workerDatabase } from '../helpers/app';

// bench/ab.ts counts the database's CPU per request from every `postgres` process's CPU time
// (databaseCpuMs, bench/procs.ts): a live backend's work must be in it.

it("counts a live backend's CPU work", async () => {
  const db = new Client({ connectionString: await workerDatabase() });
  await db.connect();
  try {
    const pid = (await db.query(`select pg_backend_pid() as pid`)).rows[0].pid as number;
    const [all0, own0] = [databaseCpuMs(), cpuMsOf(pid)];
    for (let i = 0; i < 5; i++) await db.query(`select count(*) from generate_series(1, 2000000)`);
    const [all, own] = [databaseCpuMs() - all0, cpuMsOf(pid) - own0];
    expect(own).toBeGreaterThan(0);
    expect(all).toBeGreaterThanOrEqual(own);
  } finally {
    await db.end();
  }
});
