import type { Orm } from '../../db/orm';
import { logger } from '../../logger';
import { ACCESS_CHANNEL } from '../../auth/key-cache';
import { renderEventFast } from '../event/event.render-fast';
import type { EventRow } from '../event/event.render';
import { ASSIGN_SQL, HEAD_SQL } from '../event/event.sql';
import { EVENTS_CHANNEL, PgListener } from './live.listener';
import { LIVE_PAGE_SQL, LIVE_PENDING_SQL } from './live.sql';
import { MAX_BEHIND, type HubLink, type Subscriber } from './live.subscriber';

export interface FeedHubOptions {
  /** Read the feed this often while anyone subscribes, notification or not (a safety net). */
  pollMs?: number;
  /** Read again this soon when finished transactions wait behind a running one for positions. */
  retryMs?: number;
  /** Events read per statement. */
  batch?: number;
  /**
   * A read starts at least this long after the one before it: events committed in between go out
   * together, one write per socket instead of one per event (docs/live-updates.md).
   */
  gapMs?: number;
  /** A subscriber further behind than this many events is ended (LIVE_MAX_BEHIND). */
  maxBehind?: number;
}

type Row = EventRow & { top: string; company_uuid: string; position: string | null };

/**
 * The process's one feed reader (docs/live-updates.md): however many subscribers, one LISTEN
 * connection and one reader. A notification (a transaction that wrote events committed, on any
 * process) wakes it; it gives positions (events_assign) and reads every company's events after the
 * last position it read, in order, rendering each once and handing it to the subscribers of its
 * company. The feed is the truth, the notification only a wake-up: nothing is lost or reordered
 * when one is lost, and the poll covers a wake that found events still waiting for positions.
 *
 * A change of a key, company or user (the key cache's channel) checks every subscriber's key
 * again; a subscription whose key no longer works ends.
 */
export class FeedHub implements HubLink {
  private readonly byCompany = new Map<string, Set<Subscriber>>();
  private position = 0n;
  private reading: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private gap: NodeJS.Timeout | null = null;
  private lastRead = -Infinity;
  private accessCheck: NodeJS.Timeout | null = null;
  private readonly listener: PgListener;
  private readonly o: Required<FeedHubOptions>;
  private count = 0;
  private stopped = false;

  constructor(
    private readonly orm: Orm,
    directUrl: string,
    /** Whether a subscriber's key still works (checked after changes of keys, companies and users). */
    private readonly keyWorks: (credential: string) => Promise<boolean>,
    options: FeedHubOptions = {},
  ) {
    this.o = { pollMs: 1_000, retryMs: 20, batch: 1000, gapMs: 50, maxBehind: MAX_BEHIND, ...options };
    this.listener = new PgListener(directUrl, [EVENTS_CHANNEL, ACCESS_CHANNEL], (channel) => (channel === ACCESS_CHANNEL ? this.accessChanged() : this.wake()));
  }

  /** How many events a subscriber may fall behind before it is ended. */
  get maxBehind(): number {
    return this.o.maxBehind;
  }

  /** How many subscriptions this process serves. */
  get subscribers(): number {
    return this.count;
  }

  async start(): Promise<void> {
    this.position = await this.head();
    await this.listener.start();
    this.timer = setInterval(() => this.count > 0 && this.wake(), this.o.pollMs);
    this.timer.unref();
  }

  /** Ends every subscription and stops listening; a read under way finishes on its own. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of [this.timer, this.retry, this.gap, this.accessCheck]) if (t) clearTimeout(t);
    for (const set of this.byCompany.values()) for (const s of set) s.end('closed');
    await this.listener.stop();
  }

  add(s: Subscriber): void {
    let set = this.byCompany.get(s.companyId);
    if (!set) this.byCompany.set(s.companyId, (set = new Set()));
    if (!set.has(s) && this.count++ === 0) this.wake();
    set.add(s);
  }

  remove(s: Subscriber): void {
    const set = this.byCompany.get(s.companyId);
    if (!set?.delete(s)) return;
    this.count--;
    if (!set.size) this.byCompany.delete(s.companyId);
  }

  /**
   * Reads the feed now, or once more after the read under way, or when the gap after the last
   * read has passed. Without subscribers, nothing: the first one to come wakes the reader, which
   * walks past what happened meanwhile (rendering none of it).
   */
  wake(): void {
    if (this.stopped || this.count === 0 || this.gap) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    const wait = this.lastRead + this.o.gapMs - performance.now();
    if (wait > 0) {
      this.gap = setTimeout(() => {
        this.gap = null;
        this.wake();
      }, wait);
      this.gap.unref();
      return;
    }
    this.lastRead = performance.now();
    this.reading = this.read()
      .catch((err) => logger.warn({ err }, 'live updates: reading the feed failed; the next wake retries'))
      .finally(() => {
        this.reading = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async read(): Promise<void> {
    const conn = this.orm.em.getConnection();
    await conn.execute(ASSIGN_SQL);
    const em = this.orm.em.fork();
    for (;;) {
      const all = await conn.execute<Row[]>(LIVE_PAGE_SQL, [this.position.toString(), this.o.batch]);
      // Positions only grow; a top below ours means the feed was emptied (a test's truncation, a
      // restored backup): read it from its start.
      if (BigInt(all[0].top) < this.position) {
        this.position = 0n;
        continue;
      }
      const rows = all.filter((r) => r.position !== null);
      for (const row of rows) {
        const subscribers = this.byCompany.get(row.company_uuid);
        if (subscribers?.size) {
          const item = { position: BigInt(row.position!), companyId: row.company_uuid, event: renderEventFast(em, row) };
          for (const s of subscribers) s.offer(item);
        }
        this.position = BigInt(row.position!);
      }
      if (rows.length < this.o.batch) break;
    }
    // Finished transactions behind a running one get positions when it ends, which may notify nothing.
    const [{ pending }] = await conn.execute<{ pending: boolean }[]>(LIVE_PENDING_SQL);
    if (pending && !this.retry) {
      this.retry = setTimeout(() => {
        this.retry = null;
        this.wake();
      }, this.o.retryMs);
      this.retry.unref();
    }
  }

  private async head(): Promise<bigint> {
    const conn = this.orm.em.getConnection();
    await conn.execute(ASSIGN_SQL);
    const [{ top }] = await conn.execute<{ top: string }[]>(HEAD_SQL);
    return BigInt(top);
  }

  /** Keys, companies or users changed: end the subscriptions whose key no longer works (batched). */
  private accessChanged(): void {
    if (this.accessCheck || this.count === 0) return;
    this.accessCheck = setTimeout(() => {
      this.accessCheck = null;
      const all = [...this.byCompany.values()].flatMap((set) => [...set]);
      // Each key once, however many of its subscriptions this process serves.
      const checks = new Map<string, Promise<boolean>>();
      for (const s of all) {
        if (!checks.has(s.credential)) checks.set(s.credential, this.keyWorks(s.credential).catch(() => true));
        void checks.get(s.credential)!.then((works) => works || s.end('revoked'));
      }
    }, 50);
    this.accessCheck.unref();
  }
}
