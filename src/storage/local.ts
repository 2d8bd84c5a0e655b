import { createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { PhotoStorage } from './photo-storage';

// Keys are made by newPhotoKey; anything else is refused before touching the disk.
const KEY = /^[0-9a-f-]{36}\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.(jpg|png|webp|gif|heic|heif)$/;

export const PHOTO_FILES_PATH = '/api/v1/photo-files';

/** Photos on local disk, read through signed, expiring links served by the API. */
export class LocalDiskStorage implements PhotoStorage {
  readonly backend = 'local' as const;

  constructor(
    readonly root: string,
    private readonly secret: string,
    private readonly ttlSeconds: number,
  ) {}

  pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error('invalid photo key');
    return path.join(this.root, key);
  }

  async putFile(key: string, stagedPath: string): Promise<void> {
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.rename(stagedPath, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await pipeline(createReadStream(stagedPath), createWriteStream(target, { flags: 'wx' }));
    }
  }

  async remove(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async signedUrl(key: string, baseUrl: string, now = Date.now()): Promise<string> {
    const expires = Math.floor(now / 1000) + this.ttlSeconds;
    return `${baseUrl}${PHOTO_FILES_PATH}/${key}?expires=${expires}&sig=${this.sign(key, expires)}`;
  }

  /** The signature binds the key and the expiry: it cannot be reused for another file or time. */
  sign(key: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${key}\n${expires}`).digest('base64url');
  }

  /** True when the link is genuine and has not expired. */
  verify(key: string, expires: unknown, sig: unknown, now = Date.now()): boolean {
    if (!KEY.test(key) || typeof expires !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(expires)) return false;
    if (Number(expires) * 1000 <= now) return false;
    const want = Buffer.from(this.sign(key, Number(expires)));
    const got = Buffer.from(sig);
    return got.length === want.length && timingSafeEqual(got, want);
  }
}
