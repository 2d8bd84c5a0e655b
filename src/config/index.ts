import path from 'node:path';

// Every setting is an environment variable with a safe default; README lists them all.
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  dataDir: string;
  migrate: boolean;
  seedDemo: boolean;
  corsOrigins: string[];
  trustProxy: string[];
  publicUrl: string | null;
  photoSecret: string | null;
  maxPhotoBytes: number;
  logLevel: string;
  shutdownTimeoutMs: number;
  dbPoolMax: number;
}

export class ConfigError extends Error {}

function bool(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function int(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function list(raw: string | undefined): string[] {
  return (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL');
  }
  const publicUrl = env.PUBLIC_URL?.trim().replace(/\/+$/, '') || null;
  if (publicUrl && !/^https?:\/\//.test(publicUrl)) throw new ConfigError('PUBLIC_URL must start with http:// or https://');
  return {
    port: int('PORT', env.PORT, 4000, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR?.trim() || '.data'),
    migrate: bool('MIGRATE', env.MIGRATE, true),
    // Demo data only ever lands in the embedded database unless asked for explicitly.
    seedDemo: bool('SEED_DEMO', env.SEED_DEMO, !databaseUrl),
    corsOrigins: list(env.CORS_ORIGINS),
    trustProxy: list(env.TRUST_PROXY),
    publicUrl,
    photoSecret: env.PHOTO_URL_SECRET?.trim() || null,
    maxPhotoBytes: int('MAX_PHOTO_BYTES', env.MAX_PHOTO_BYTES, 15 * 1024 * 1024, 1, 1024 * 1024 * 1024),
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 10_000, 0, 600_000),
    dbPoolMax: int('DB_POOL_MAX', env.DB_POOL_MAX, 10, 1, 1000),
  };
}
