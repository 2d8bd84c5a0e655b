// What a photo storage backend does (./local.ts, ./s3.ts); ./storage.ts picks the configured one.
// Types only, so the backends need not import the module that builds them.

export type StorageBackend = 'local' | 's3';

/** Where photo bytes live. Keys are made by the server (never from client file names). */
export interface PhotoStorage {
  readonly backend: StorageBackend;
  /** Moves a checked, staged file into storage, streaming it (never whole in memory). */
  putFile(key: string, stagedPath: string, size: number, contentType: string): Promise<void>;
  remove(key: string): Promise<void>;
  /** An absolute, expiring link for reading the file. */
  signedUrl(key: string, baseUrl: string): Promise<string>;
}
