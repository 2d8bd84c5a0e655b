import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Config } from '../config';
import type { PhotoStorage } from './photo-storage';
import { LocalDiskStorage } from './local';
import { photoSecret } from './photo-secret';

export type { PhotoStorage, StorageBackend } from './photo-storage';

let current: { config: Config; storage: PhotoStorage; local: LocalDiskStorage } | undefined;

/** Builds the configured backend; createApp calls it once. */
export function configurePhotoStorage(config: Config): void {
  const local = new LocalDiskStorage(path.join(config.dataDir, 'photos'), photoSecret(config), config.photoUrlTtlSeconds);
  // The AWS SDK loads only when S3 is configured.
  const storage = config.photoStorage === 's3' ? new (require('./s3') as typeof import('./s3')).S3Storage(config) : local;
  current = { config, storage, local };
}

function state() {
  if (!current) throw new Error('photo storage is not configured');
  return current;
}

export function photoStorage(): PhotoStorage {
  return state().storage;
}

/** The backend that holds a stored photo (rows keep their backend when the setting changes). */
export function storageFor(backend: string): PhotoStorage {
  const s = state();
  return backend === s.storage.backend ? s.storage : s.local;
}

export function localPhotoStorage(): LocalDiskStorage {
  return state().local;
}

export function storageSettings(): Config {
  return state().config;
}

/** Staging area for uploads being checked: on the same disk as local storage, so moves are renames. */
export function stagingDir(): string {
  return path.join(state().config.dataDir, 'tmp', 'uploads');
}

/** `<company>/<job>/<random>.<ext>`: ids the server made, an extension from the sniffed type. */
export function newPhotoKey(companyUuid: string, jobUuid: string, ext: string): string {
  return `${companyUuid}/${jobUuid}/${randomUUID()}.${ext}`;
}
