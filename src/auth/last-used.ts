import type { EntityManager } from '@mikro-orm/postgresql';

// A key's last_used_at, to the minute (docs/people-and-access.md): written by the first request of
// each minute per key and process, and skipped when the key's row already says this minute (another
// process wrote it). The column is left out of the trigger that empties the key caches (migration
// 0027), so marking a key used keeps every process's cache.
const MARK_SQL =
  `update api_keys set last_used_at = date_trunc('minute', now()) ` +
  `where id = ? and company_uuid = ? and (last_used_at is null or last_used_at < date_trunc('minute', now()))`;

const MINUTE = 60_000;
/** The minute (ms since the epoch / 60 000) this process last marked each key. */
const marked = new Map<string, number>();

/** Marks the key used this minute, unless this process or its row says it is already. */
export async function markKeyUsed(em: () => EntityManager, key: { id: string; lastUsedAt: Date | null }, companyId: string, now = Date.now()): Promise<void> {
  const minute = Math.floor(now / MINUTE);
  if (marked.get(key.id) === minute) return;
  if (marked.size >= 100_000) marked.clear();
  marked.set(key.id, minute);
  if (key.lastUsedAt && Math.floor(key.lastUsedAt.getTime() / MINUTE) >= minute) return;
  await em().getConnection().execute(MARK_SQL, [key.id, companyId]);
}

/** The statement, for the statement watchers of the tests (they leave it out of a request's count). */
export const MARK_KEY_USED_SQL = MARK_SQL;
