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
});
