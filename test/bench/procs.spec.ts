import { Client } from 'pg';
import { cpuMsOf, databaseCpuMs, databaseProcesses } from '../../bench/procs';
import { workerDatabase } from '../helpers/app';

// bench/ab.ts counts the database's CPU per request from every `postgres` process's CPU time
// (databaseCpuMs, bench/procs.ts): a live backend is among the processes counted, with its own CPU
// time, and its work shows there. (The sum itself may fall while other tests' backends end.)

it("counts a live backend and its CPU work", async () => {
  const db = new Client({ connectionString: await workerDatabase() });
  await db.connect();
  try {
    const pid = (await db.query(`select pg_backend_pid() as pid`)).rows[0].pid as number;
    const before = databaseProcesses().get(pid);
    expect(before).toBeDefined();
    for (let i = 0; i < 5; i++) await db.query(`select count(*) from generate_series(1, 2000000)`);
    const after = databaseProcesses().get(pid)!;
    expect(after).toBeGreaterThan(before!);
    expect(after).toBeLessThanOrEqual(cpuMsOf(pid));
    expect(databaseCpuMs()).toBeGreaterThanOrEqual(after);
  } finally {
    await db.end();
  }
});
