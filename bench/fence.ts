import 'reflect-metadata';
import { KeyCache } from '../src/auth/key-cache';
import { cpuMsOf, median } from './procs';
import { openBenchDatabase } from './setup';

// `npx ts-node --transpile-only bench/fence.ts [finds] [rounds]` (DATABASE_URL: a server of your own,
// else the embedded one): the key cache's find of a kept key, one after another, with each form of
// its fence (src/auth/key-cache.ts): `sync`, a bare Sync message, and `statement`, FENCE as text
// (DB_PREPARED_STATEMENTS=false). Each find waits for a fence of its own, so the figures are per
// fence: CPU of this process (process.cpuUsage) and of the listening backend (/proc), and the time
// of a round trip; medians of alternating rounds (docs/benchmark.md, "The fence as a Sync message").
const log = (m: string) => process.stderr.write(`[fence] ${m}\n`);

async function main(): Promise<void> {
  const finds = Number(process.argv[2] ?? 20_000);
  const rounds = Number(process.argv[3] ?? 3);
  const db = await openBenchDatabase(log);
  const forms = ['sync', 'statement'] as const;
  const caches = Object.fromEntries(forms.map((f) => [f, new KeyCache(db.url, { fence: f, applicationName: `fsc-bench-fence-${f}` })])) as Record<(typeof forms)[number], KeyCache>;
  try {
    for (const c of Object.values(caches)) await c.start();
    const row = { id: 'kept' };
    const out: Record<string, { node: number[]; backend: number[]; wall: number[] }> = {};
    for (let r = 0; r < rounds; r++) {
      for (const form of r % 2 ? [...forms].reverse() : forms) {
        const cache = caches[form];
        await cache.find('h', async () => row);
        const pid = cache.listenerPid!;
        const [cpu0, b0, t0] = [process.cpuUsage(), cpuMsOf(pid), process.hrtime.bigint()];
        for (let i = 0; i < finds; i++) {
          if ((await cache.find('h', async () => undefined)) !== row) throw new Error(`${form}: the kept row was not used`);
        }
        const wall = Number(process.hrtime.bigint() - t0) / 1e3 / finds;
        const cpu = process.cpuUsage(cpu0);
        const o = (out[form] ??= { node: [], backend: [], wall: [] });
        o.node.push((cpu.user + cpu.system) / finds);
        o.backend.push(((cpuMsOf(pid) - b0) * 1000) / finds);
        o.wall.push(wall);
        log(`${form} round ${r + 1}: ${o.node.at(-1)!.toFixed(1)} µs here, ${o.backend.at(-1)!.toFixed(1)} µs in the backend, ${wall.toFixed(1)} µs a round trip`);
      }
    }
    const m = Object.fromEntries(forms.map((f) => [f, { node: median(out[f].node), backend: median(out[f].backend), wall: median(out[f].wall) }]));
    for (const f of forms) process.stdout.write(`${f.padEnd(9)} ${m[f].node.toFixed(1)} µs CPU here, ${m[f].backend.toFixed(1)} µs CPU in the backend, ${m[f].wall.toFixed(1)} µs a round trip\n`);
    process.stdout.write(`sync/statement: ${(m.sync.node / m.statement.node).toFixed(2)}× here, ${(m.sync.backend / m.statement.backend).toFixed(2)}× in the backend\n`);
  } finally {
    for (const c of Object.values(caches)) await c.stop();
    await db.close();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(String(e?.stack ?? e) + '\n');
    process.exit(1);
  },
);
