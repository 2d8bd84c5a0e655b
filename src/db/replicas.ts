import { MikroORM } from '@mikro-orm/postgresql';
import { unavailable } from '../errors/db-error';
import { logger } from '../logger';
import { ormOptions, type Orm } from './orm';
import type { RequestContext } from '../data/context';
import { readFrom } from '../auth/authenticate';
import { runStatement } from '../data/prepared';

// Lag-tolerant reads on streaming replicas, with read-your-writes across processes
// (docs/scaling.md, "Reads on replicas"). Migration 0035 marks every transaction that writes a
// company's rows; the sweep below turns committed marks into the company's WAL position
// (company_wal.lsn); a read goes to a replica only when the replica has replayed that position.

/** A WAL position ('16/B374D848') as a number, for comparing. */
export function lsnValue(lsn: string | null | undefined): bigint {
  if (!lsn) return -1n;
  const [hi, lo] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/**
 * The WAL position a replica must have replayed to show every write of the company committed
 * before this statement's snapshot: the current position while a committed write of the company is
 * still marked (its position not recorded yet), else the recorded one.
 */
export const TARGET_SQL =
  `select (case when exists (select 1 from company_write_marks where company_uuid = ?) then pg_current_wal_insert_lsn() ` +
  `else coalesce((select lsn from company_wal where company_uuid = ?), '0/0'::pg_lsn) end)::text as lsn`;

interface Replica {
  url: string;
  orm: Orm;
  /** The last replay position read from it. */
  replayed: bigint;
  /** Until when it is skipped after a failure (Date.now()). */
  downUntil: number;
  /** The replay position being read, which concurrent requests share. */
  reading: Promise<bigint> | null;
  /** Failed since last connected: its pooled connections may be dead (a restarted replica), so it reconnects first. */
  broken: boolean;
}

export interface ReplicaOptions {
  poolMax?: number;
  /** A replica that failed is skipped this long before it is tried again. */
  retryMs?: number;
  /** How long reading a replica's replay position may take before the replica is skipped. */
  probeTimeoutMs?: number;
}

/**
 * SQLSTATEs and errors of a replica that is going or gone, or of a query the replay cancelled:
 * among them every error that would answer 503 SERVICE_UNAVAILABLE (`unavailable`), such as pg's
 * "Client has encountered a connection error and is not queryable" of a pooled connection whose
 * server went away, so that a read the replica's stop cut short runs again on the primary.
 */
export function replicaFailure(err: unknown): boolean {
  const e = err as { code?: string; message?: string; cause?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (unavailable(e) || unavailable(e.cause)) return true;
  const code = e.code ?? '';
  return (
    /^(08|57P|53)/.test(code) ||
    code === '40001' || // canceling statement due to conflict with recovery
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code) ||
    /Connection terminated|connection.*(closed|ended)|timeout|Knex: Timeout/i.test(e.message ?? '')
  );
}

/**
 * The replicas of DATABASE_REPLICA_URLS, each an ORM of its own (its own pool), and the choice of
 * one for a company's read. A replica that fails or is further behind than the company's target is
 * skipped; then the read goes to the primary, without an error.
 */
export class Replicas {
  private readonly list: Replica[];
  private next = 0;
  /** Reads sent to a replica, and to the primary because none had caught up or was up. */
  readonly counts = { replica: 0, primary: 0, retried: 0 };
  private readonly o: Required<ReplicaOptions>;

  private readonly targets: Orm['em'];

  constructor(
    private readonly primary: Orm,
    urls: string[],
    options: ReplicaOptions = {},
  ) {
    this.o = { poolMax: 10, retryMs: 1_000, probeTimeoutMs: 500, ...options };
    // The target's statement runs on the primary's pool, in no transaction; this context holds no entity.
    this.targets = primary.em.fork();
    // initSync: no connection at start, so that a replica that is down does not stop the start.
    this.list = urls.map((url) => ({
      url,
      orm: MikroORM.initSync({ ...ormOptions(url, this.o.poolMax), pool: { min: 0, max: this.o.poolMax, acquireTimeoutMillis: 2_000 } }) as unknown as Orm,
      replayed: -1n,
      downUntil: 0,
      reading: null,
      broken: false,
    }));
  }

  get size(): number {
    return this.list.length;
  }

  /**
   * The ORM a lag-tolerant read of the company may use: a replica that has replayed every write of
   * the company committed before this call, or null (the primary).
   */
  async pick(companyId: string): Promise<{ orm: Orm; failed(err: unknown): boolean } | null> {
    if (!this.list.length) return null;
    // Prepared (src/data/prepared.ts): every replica read asks it, and parsing it would cost the primary most of what the read saves.
    const rows = await runStatement<{ lsn: string }[]>(this.targets, TARGET_SQL, [companyId, companyId]);
    const target = lsnValue(rows[0]?.lsn);
    const start = this.next++ % this.list.length;
    for (let i = 0; i < this.list.length; i++) {
      const r = this.list[(start + i) % this.list.length];
      if (Date.now() < r.downUntil) continue;
      if (r.replayed < target) await this.replayed(r);
      if (r.replayed >= target) {
        this.counts.replica++;
        return { orm: r.orm, failed: (err) => this.failed(r, err) };
      }
    }
    this.counts.primary++;
    return null;
  }

  /** True (and the replica skipped for a while) when `err` is the replica's failure: the read is retried on the primary. */
  private failed(r: Replica, err: unknown): boolean {
    if (!replicaFailure(err)) return false;
    this.down(r, err);
    this.counts.retried++;
    return true;
  }

  private down(r: Replica, err: unknown): void {
    if (Date.now() >= r.downUntil) logger.warn({ err, replica: redact(r.url) }, 'replica skipped: reads go to the primary for a while');
    r.downUntil = Date.now() + this.o.retryMs;
    r.replayed = -1n;
    r.broken = true;
  }

  /** Reads the replica's replay position (one read at a time per replica, shared). */
  private async replayed(r: Replica): Promise<bigint> {
    r.reading ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        if (r.broken) {
          // A new pool: the old one's connections died with the replica (or its restart).
          await r.orm.close(true).catch(() => undefined);
          await r.orm.connect();
          r.broken = false;
        }
        const read = r.orm.em.getConnection().execute<{ lsn: string | null }[]>('select pg_last_wal_replay_lsn()::text as lsn');
        const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(Object.assign(new Error('replica probe timeout'), { code: 'ETIMEDOUT' })), this.o.probeTimeoutMs)));
        const rows = await Promise.race([read, timeout]);
        // Not a standby (null): never used for reads.
        const v = lsnValue(rows[0]?.lsn);
        if (v > r.replayed) r.replayed = v;
        return r.replayed;
      } catch (err) {
        this.down(r, err);
        return r.replayed;
      } finally {
        clearTimeout(timer);
        r.reading = null;
      }
    })();
    return r.reading;
  }

  async close(): Promise<void> {
    await Promise.all(this.list.map((r) => r.orm.close(true).catch(() => undefined)));
  }
}

function redact(url: string): string {
  const u = new URL(url);
  u.password = '';
  return u.toString();
}

let routing: { primary: Orm; replicas: Replicas } | null = null;

/** The process's replicas (createApp, from DATABASE_REPLICA_URLS); null: every read on the primary. */
export function configureReplicas(primary: Orm, replicas: Replicas | null): void {
  routing = replicas?.size ? { primary, replicas } : null;
}

/**
 * Runs a lag-tolerant read (a REST GET of records or lists, a GraphQL query) on a replica that has replayed the
 * company's writes, else on the primary; a replica that fails meanwhile is skipped and the read
 * runs again on the primary (reads change nothing), so that the caller never sees its failure.
 */
export async function readOnReplica<T>(ctx: RequestContext, read: () => Promise<T>, failureIn: (out: T) => unknown = () => undefined): Promise<T> {
  if (!routing) return read();
  const { primary, replicas } = routing;
  const pick = await replicas.pick(ctx.companyId);
  if (!pick || !readFrom(ctx, pick.orm)) return read();
  try {
    const out = await read();
    // A read that answers with its errors (a GraphQL result) hands them back instead of throwing.
    const err = failureIn(out);
    if (err === undefined || !pick.failed(err)) return out;
  } catch (err) {
    if (!pick.failed(err)) throw err;
  }
  readFrom(ctx, primary);
  return read();
}
