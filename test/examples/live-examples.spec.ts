import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTenant, useTestApp } from '../helpers/app';
import { useListening } from '../helpers/live';
import { makeJob, makeVisit, slot } from '../helpers/visits';

// The runnable examples of docs/live-updates.md and docs/agents.md, run as their headers say
// against this process listening on a port.
const ROOT = path.resolve(__dirname, '../..');
const t = useTestApp();
const http = useListening(t);
jest.setTimeout(60_000);

it('examples/dispatch-board.js lists the day’s visits, then prints each visit as it changes', async () => {
  const a = await createTenant(t);
  const job = await makeJob(t, a);
  await makeVisit(t, a, job.uuid, { title: 'Morning survey', ...slot(8, 9, '2026-06-01') });
  const board = spawn(process.execPath, [path.join(ROOT, 'examples/dispatch-board.js'), '--day', '2026-06-01'], {
    cwd: ROOT,
    env: { ...process.env, API_URL: `http://${http.base()}`, API_KEY: a.key },
  });
  let out = '';
  const seen = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => out.includes(text) && (board.stdout.off('data', onData), resolve());
      const onData = (d: Buffer) => ((out += String(d)), check());
      board.stdout.on('data', onData);
      board.once('exit', () => reject(new Error(`the board exited:\n${out}`)));
      check();
    });
  try {
    await seen('Following changes');
    expect(out).toContain('Morning survey');
    const visit = await makeVisit(t, a, job.uuid, { title: 'Afternoon repair', ...slot(14, 16, '2026-06-01') });
    await seen('visit.created');
    expect(out).toMatch(/\+ 14:00-16:00 {2}\w+ +Afternoon repair {2}\[/);
    expect(out).toContain(visit.uuid.slice(0, 8));
  } finally {
    board.kill();
  }
});

it('examples/mcp-session.js runs its session: tools listed, one record for two creates with one key, a tool error', async () => {
  const a = await createTenant(t);
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'examples/mcp-session.js')], {
    cwd: ROOT,
    env: { ...process.env, API_URL: `http://${http.base()}`, API_KEY: a.key },
  });
  expect(stdout).toMatch(/^\d+ tools, e\.g\. /);
  expect(stdout).toContain('(the same record)');
  expect(stdout).toContain('get_customer → Mia Agent <mia@example.com>');
  expect(stdout).toContain('isError true: {"code":"VALIDATION_ERROR"');
});
