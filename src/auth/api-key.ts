import { createHash, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_PATTERN = /^fsk_[0-9A-Za-z]{40}$/;

/** `fsk_` + 40 uniformly random base62 characters (≈238 bits). */
export function generateApiKey(): string {
  let s = 'fsk_';
  for (let i = 0; i < 40; i++) s += BASE62[randomInt(62)];
  return s;
}

/** Keys carry enough entropy that a plain SHA-256 is the right stored form (no salt needed to look one up). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
