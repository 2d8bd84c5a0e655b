import { Client } from 'pg';
import { logger } from '../logger';

/** Channel of the triggers of migration 0020: any change of api_keys, companies or users. */
export const ACCESS_CHANNEL = 'fsc_access';
/** The tables the key lookup reads, whose changes notify ACCESS_CHANNEL (the same list as migration 0020's). */
export const ACCESS_TABLES = ['api_keys', 'companies', 'users'];

export interface KeyCacheOptions {
  /** Wait before opening a new listening connection after one was lost. */
  reconnectMs?: number;
  /** A fence not answered after this long counts as a lost connection. */
  fenceTimeoutMs?: number;
  maxEntries?: number;
  /** application_name of the listening connection (pg_stat_activity). */
  applicationName?: string;
  /**
   * `sync`: the fence is a bare Sync message (SyncFence). `statement`: FENCE, whose answer names
   * the backend that gave it, compared with the listening one (with DB_PREPARED_STATEMENTS=false,
   * the setting for a pooler, which could hand the fence to another backend).
   */
  fence?: 'sync' | 'statement';
}

type Row = Record<string, unknown>;

/** The fence as a statement (`fence: 'statement'`): its answer is the backend that gave it. */
export const FENCE = 'select pg_backend_pid() as pid';

type Settle = (ok: boolean, reason?: string, err?: unknown) => void;

/**
 * The fence as a bare Sync message of the extended protocol, sent through node-postgres's queue as
 * a query of its own (a "submittable"): PostgreSQL answers it with ReadyForQuery alone, and a
 * session that is not in a transaction sends the notifications it has been signalled before it
 * sends ReadyForQuery (postgres.c, the idle branch of PostgresMain), so the answer comes after
 * them. Nothing is parsed, planned or run: about half the CPU of `select pg_backend_pid()` as a
 * prepared statement, in this process and in the backend (docs/benchmark.md, "The fence as a
 * Sync message"). The other methods answer messages a Sync never gets.
 */
export class SyncFence {
  constructor(private readonly settle: Settle) {}
  submit(connection: { sync(): void }): void {
    connection.sync();
  }
  handleReadyForQuery(): void {
    this.settle(true);
  }
  handleError(err: Error): void {
    this.settle(false, 'fence failed', err);
  }
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(): void {}
  handleCopyData(): void {}
}

/**
 * The key lookup's rows (key, company, user) kept in the process (docs/access-and-operations.md,
 * "API key cache"). Every change of api_keys, companies or users, by any process or by hand in
 * SQL, notifies ACCESS_CHANNEL at commit (statement triggers, migration 0020); each server LISTENs
 * on a connection of its own and drops every entry on a notification.
 *
 * The next request after a change sees it in every process: a kept row is used only after a fence,
 * a round trip on the listening connection (SyncFence, or FENCE) sent after the request arrived.
 * PostgreSQL signals listening sessions when the change commits and a session sends the
 * notifications it has been signalled before it answers its next message, so by the fence's answer
 * every change committed before the request has emptied the cache. Requests that arrive while a
 * fence is on its way share the next one: one small statement on one connection, without the
 * pool, for any number of concurrent requests, instead of the key lookup for each.
 *
 * Trusted only while listening: before LISTEN has succeeded, after the connection errs, ends, or
 * leaves a fence unanswered, and when a FENCE is answered by another session than the listening one
 * (a pooler), keys are looked up as without a cache, and nothing is stored until the connection is
 * new. A row read before a notification that arrives before the row is stored is not stored (the
 * generation counter), so a lookup that raced a change never keeps the old row. Keys not found are
 * never kept.
 */
export class KeyCache {
  private readonly entries = new Map<string, Row>();
  /** Bumped by every invalidation and every change of the listening state. */
  private generation = 0;
  private client: Client | null = null;
  /** Backend of the listening session; null while not listening. */
  private listenPid: number | null = null;
  private stopped = false;
  private reconnect: NodeJS.Timeout | null = null;
  /** The fence not sent yet, which arriving requests join; the one on its way. */
  private nextFence: Promise<boolean> | null = null;
  private fenceOnWay: Promise<unknown> = Promise.resolve();
  /** Settles the fence on its way, and when it was sent (Date.now()); the watchdog reads both. */
  private settleOnWay: Settle | null = null;
  private sentAt = 0;
  private watchdog: NodeJS.Timeout | null = null;
  private readonly o: Required<KeyCacheOptions>;

  constructor(
    private readonly url: string,
    options: KeyCacheOptions = {},
  ) {
    this.o = { reconnectMs: 1_000, fenceTimeoutMs: 2_000, maxEntries: 10_000, applicationName: 'fsc-key-cache', fence: 'sync', ...options };
  }

  /** How many times the cache was emptied (notifications, and changes of the listening state). */
  get invalidations(): number {
    return this.generation;
  }

  /** The listening session's backend pid (pg_stat_activity), null while not listening. */
  get listenerPid(): number | null {
    return this.listenPid;
  }

  /** Whether kept rows may be used (the listening connection is up). */
  get active(): boolean {
    return this.listenPid !== null;
  }

  /** Opens the listening connection; resolves once it listens or failed (then it retries in the background). */
  async start(): Promise<void> {
    // One timer for every fence rather than one per fence: a fence on its way for longer than
    // fenceTimeoutMs counts as a lost connection.
    this.watchdog = setInterval(() => {
      if (this.client && this.settleOnWay && Date.now() - this.sentAt > this.o.fenceTimeoutMs) this.lost(this.client, 'fence unanswered');
    }, Math.max(10, this.o.fenceTimeoutMs / 4));
    this.watchdog.unref();
    await this.connect();
  }

  /** The key's row: kept, after a fence, while listening; else from `load` (kept if nothing changed meanwhile). */
  async find(hash: string, load: () => Promise<Row | undefined>): Promise<Row | undefined> {
    const hit = this.active ? this.entries.get(hash) : undefined;
    if (hit) {
      const seen = this.generation;
      if ((await this.fence()) && seen === this.generation) return hit;
    }
    const generation = this.generation;
    const row = await load();
    if (row && this.active && generation === this.generation) {
      if (this.entries.size >= this.o.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(hash, row);
    }
    return row;
  }

  /** Drops every entry (a notification; or the listening state changed). */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnect) clearTimeout(this.reconnect);
    if (this.watchdog) clearInterval(this.watchdog);
    const client = this.client;
    this.client = null;
    this.listenPid = null;
    this.invalidate();
    await client?.end().catch(() => undefined);
  }

  /** True once the listening session has answered a fence sent after this call. */
  private fence(): Promise<boolean> {
    if (this.nextFence) return this.nextFence;
    const fence: Promise<boolean> = this.fenceOnWay.then(() => {
      // Sent now: requests arriving from here on wait for the next fence.
      if (this.nextFence === fence) this.nextFence = null;
      return this.send();
    });
    this.nextFence = fence;
    this.fenceOnWay = fence;
    return fence;
  }

  /** One fence on the listening connection: true once the listening session answered it. */
  private send(): Promise<boolean> {
    const client = this.client;
    const pid = this.listenPid;
    if (!client) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const settle: Settle = (ok, reason, err) => {
        if (this.settleOnWay !== settle) return;
        this.settleOnWay = null;
        if (!ok && reason) this.lost(client, reason, err);
        resolve(ok && this.client === client && this.listenPid === pid);
      };
      this.settleOnWay = settle;
      this.sentAt = Date.now();
      if (this.o.fence === 'sync') {
        void client.query(new SyncFence(settle) as never);
      } else {
        client.query<{ pid: number }>(FENCE).then(
          (answer) => (answer.rows[0]?.pid === pid ? settle(true) : settle(false, 'fence answered by another session (a pooler?)')),
          (err) => settle(false, 'fence failed', err),
        );
      }
    });
  }

  private lost(client: Client, reason: string, err?: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    this.listenPid = null;
    this.invalidate();
    // A fence still on its way is answered now: false.
    this.settleOnWay?.(false);
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    logger.warn({ err, reason }, 'API key cache: listening connection lost; keys are looked up on every request until it is back');
    this.reconnect = setTimeout(() => void this.connect(), this.o.reconnectMs);
    this.reconnect.unref();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.url, keepAlive: true, application_name: this.o.applicationName, connectionTimeoutMillis: 5_000 });
    this.client = client;
    client.on('error', (err) => this.lost(client, 'error', err));
    client.on('end', () => this.lost(client, 'end'));
    client.on('notification', () => {
      if (this.client === client) this.invalidate();
    });
    try {
      await client.connect();
      await client.query(`listen ${ACCESS_CHANNEL}`);
      const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      if (this.client !== client) return;
      // Whatever was kept before is of a time nothing was heard: start empty.
      this.invalidate();
      this.listenPid = rows[0].pid;
    } catch (err) {
      this.lost(client, 'connect', err);
    }
  }
}
