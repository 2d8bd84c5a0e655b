import { Client } from 'pg';
import { registerTask, startEngine, Engine } from '../../src/jobs/engine';
import { RECURRING_TASK } from '../../src/jobs/tasks';
import { useTestApp } from '../helpers/app';

// The background task engine (src/jobs/engine.ts): a registered task runs when queued, in one of
// the processes; its cron line is stored with the engine; tasks marked runOnStart run at start.

const t = useTestApp();

describe('the background task engine', () => {
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
  });

  it('runs a queued task once, runs start tasks at start, and stores each cron line', async () => {
    const runs: Array<Record<string, unknown>> = [];
    let started = 0;
    let ran: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (ran = resolve));
    registerTask({ name: 'test-echo', async run(_orm, data) { runs.push(data); ran(); } });
    registerTask({ name: 'test-start', cron: '*/5 * * * *', runOnStart: true, async run() { started++; } });
    engine = await startEngine(t.orm, t.url, { pollingIntervalSeconds: 0.5 });
    await engine.runNow('test-echo', { n: 1 });
    await done;
    expect(runs).toEqual([{ n: 1 }]);
    expect(started).toBe(1);
    const db = new Client({ connectionString: t.url });
    await db.connect();
    try {
      const { rows } = await db.query(`select name, cron, options->>'tz' as tz from pgboss.schedule order by name`);
      expect(rows).toEqual(expect.arrayContaining([{ name: RECURRING_TASK, cron: '* * * * *', tz: 'UTC' }, { name: 'test-start', cron: '*/5 * * * *', tz: 'UTC' }]));
    } finally {
      await db.end();
    }
    await expect(engine.runNow('no-such-task')).rejects.toThrow('no task "no-such-task"');
  });

  it('starts in two processes at once on a database that has no queues yet', async () => {
    // pg-boss's create_queue deadlocks when two engines create one queue together (src/jobs/engine.ts,
    // createQueue); before the retry, one of two workers started together on a new database failed
    // to start in five rounds of six.
    const db = new Client({ connectionString: t.url });
    await db.connect();
    try {
      for (let round = 0; round < 3; round++) {
        await db.query('drop schema if exists pgboss cascade');
        const engines = await Promise.allSettled([startEngine(t.orm, t.url), startEngine(t.orm, t.url)]);
        await Promise.all(engines.map((e) => (e.status === 'fulfilled' ? e.value.stop() : undefined)));
        expect(engines.map((e) => (e.status === 'fulfilled' ? 'started' : String(e.reason)))).toEqual(['started', 'started']);
      }
      const { rows } = await db.query(`select count(*)::int as n from pgboss.queue`);
      expect(rows[0].n).toBeGreaterThanOrEqual(1);
    } finally {
      await db.end();
    }
  });
});
