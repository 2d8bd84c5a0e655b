import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';

/**
 * Key of the HMAC that signs local photo links: PHOTO_URL_SECRET, else a random secret kept in
 * DATA_DIR/photo-url-secret, so links survive restarts and every process on that data dir agrees.
 */
export function photoSecret(config: Config): string {
  if (config.photoSecret) return config.photoSecret;
  const file = path.join(config.dataDir, 'photo-url-secret');
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    // 'wx': only the first process creates it; the others read what it wrote.
    fs.writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  for (let i = 0; i < 50; i++) {
    const secret = fs.readFileSync(file, 'utf8').trim();
    if (secret) return secret;
    // Another process created the file a moment ago and is still writing it.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
  throw new Error(`${file} is empty`);
}
