import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestApp } from './app';

const run = promisify(execFile);

/** The compiled admin CLI that `npm run admin` runs; the global setup builds it (scripts/build.js). */
export const ADMIN_JS = path.resolve(__dirname, '../../dist/src/cli/admin.js');

/** The admin CLI as operators run it, against a test app's database. */
export async function admin(t: TestApp, ...args: string[]): Promise<{ code: number; out: any }> {
  try {
    const { stdout } = await run(process.execPath, [ADMIN_JS, ...args], {
      env: { ...process.env, DATABASE_URL: t.url, MIGRATE: 'false' },
    });
    return { code: 0, out: JSON.parse(stdout) };
  } catch (e: any) {
    return { code: e.code, out: JSON.parse(e.stdout) };
  }
}
