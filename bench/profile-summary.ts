import fs from 'node:fs';
import path from 'node:path';

// `npx ts-node --transpile-only bench/profile-summary.ts <file.cpuprofile> [top]`: the frames with
// the most self time of a V8 CPU profile (`node --cpu-prof`; `npm run bench -- --cpu-prof <dir>`
// writes the server's), and the share of self time by package or source folder.

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: bench/profile-summary.ts <file.cpuprofile> [top]\n');
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const idle = [...self].filter(([id]) => ['(idle)', '(program)'].includes(byId.get(id)!.callFrame.functionName)).reduce((a, [, t]) => a + t, 0);
const busy = total - idle;

const where = (url: string) => {
  if (!url) return '(native)';
  const rel = url.replace(/^file:\/\//, '');
  const nm = rel.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = rel.slice(nm + 13).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (rel.startsWith('node:')) return 'node:' + rel.slice(5).split('/')[0];
  const m = /\/dist\/(src\/[^/]+(?:\/[^/]+)?)\//.exec(rel) ?? /\/(src\/[^/]+)\//.exec(rel);
  return m ? m[1] : path.basename(rel);
};

const frames = new Map<string, number>();
const groups = new Map<string, number>();
for (const [id, t] of self) {
  const f = byId.get(id)!.callFrame;
  if (['(idle)', '(program)'].includes(f.functionName)) continue;
  const key = `${f.functionName || '(anonymous)'} ${where(f.url)}${f.url ? `:${path.basename(f.url)}:${f.lineNumber + 1}` : ''}`;
  frames.set(key, (frames.get(key) ?? 0) + t);
  groups.set(where(f.url), (groups.get(where(f.url)) ?? 0) + t);
}
const pct = (t: number) => `${((100 * t) / busy).toFixed(1)}%`;
const top = Number(topArg ?? 25);
process.stdout.write(`busy ${(busy / 1e6).toFixed(2)} s of ${(total / 1e6).toFixed(2)} s profiled\n\nself time by frame (share of busy time)\n`);
for (const [k, t] of [...frames].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(t).padStart(6)}  ${k}\n`);
process.stdout.write('\nself time by package / folder\n');
for (const [k, t] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 20)) process.stdout.write(`${pct(t).padStart(6)}  ${k}\n`);
