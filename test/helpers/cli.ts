import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestApp } from './app';

const run = promisify(execFile);

/** The admin CLI as operators run it, against a test app's database. */
export async function admin(t: TestApp, ...args: string[]): Promise<{ code: number; out: any }> {
  const bin = require.resolve('ts-node/dist/bin');
  try {
    const { stdout } = await run(process.execPath, [bin, '--transpile-only', path.resolve(__dirname, '../../src/cli/admin.ts'), ...args], {
      env: { ...process.env, DATABASE_URL: t.url, MIGRATE: 'false' },
    });
    return { code: 0, out: JSON.parse(stdout) };
  } catch (e: any) {
    return { code: e.code, out: JSON.parse(e.stdout) };
  }
}
