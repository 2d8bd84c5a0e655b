import type { RequestContext } from '../../data/context';
import { AppError } from '../../errors/app-error';
import { typeMatches, type TypeFilter } from '../event/event.catalogue';
import { decodeCursor, eventService, readFeed, type FeedPage } from '../event/event.service';
import { logger } from '../../logger';
import type { LiveItem } from './live.types';

/** A subscriber further behind than this many events is disconnected and resumes with its cursor (LIVE_MAX_BEHIND). */
export const MAX_BEHIND = 10_000;
const CATCH_UP_PAGE = 1000;

/** The catch-up's page: at most a quarter of how far behind a subscriber may fall. */
const catchUpPage = (maxBehind: number) => Math.max(1, Math.min(CATCH_UP_PAGE, Math.floor(maxBehind / 4)));

export type EndReason = 'behind' | 'revoked' | 'closed' | 'error';

/** What a subscriber needs of the process's feed hub (src/modules/live/live.hub.ts). */
export interface HubLink {
  readonly maxBehind?: number;
  add(s: Subscriber): void;
  remove(s: Subscriber): void;
}

/**
 * One subscription: the events of its company that its filter and its key let through, in feed
 * order, each once. It first reads the feed after its cursor (the catch-up) while the hub's live
 * events wait in a buffer, then hands over: buffered events at or before the last position the
 * catch-up read are dropped (it delivered them), later ones follow. Consumed as an async iterator
 * (an event at a time), or in batches: `take` what is queued when `onQueued` says there is some.
 */
export class Subscriber implements AsyncIterableIterator<LiveItem> {
  readonly companyId: string;
  private queue: LiveItem[] = [];
  private buffer: LiveItem[] | null = [];
  private last = 0n;
  private waiting: ((r: IteratorResult<LiveItem>) => void) | null = null;
  private ended: EndReason | null = null;
  /** Resumes the catch-up once the client has read enough of the queue. */
  private space: (() => void) | null = null;
  /** The batch consumer's wake-up (onQueued). */
  private queued: (() => void) | null = null;
  private readonly endings: Array<() => void> = [];

  constructor(
    readonly ctx: RequestContext,
    private readonly hub: HubLink,
    private readonly filter: TypeFilter | null,
    /** The Authorization header the subscription was opened with (checked again when keys change). */
    readonly credential: string,
    /** Called once when the subscription ends for a reason of the server's (behind, revoked, error). */
    private readonly onEnd: (reason: EndReason) => void = () => undefined,
    private readonly maxBehind = hub.maxBehind ?? MAX_BEHIND,
  ) {
    this.companyId = ctx.companyId;
  }

  get endReason(): EndReason | null {
    return this.ended;
  }

  /**
   * Registers with the hub and reads the feed's first page after `after` (the newest position when
   * null): a bad or expired cursor throws here. The rest of the catch-up runs while the client
   * reads, a page at a time as it keeps up.
   */
  async start(after: string | null | undefined): Promise<void> {
    const position = after == null ? decodeCursor((await eventService.head(this.ctx)).cursor) : decodeCursor(after);
    this.hub.add(this);
    try {
      const first = await readFeed(this.ctx, position, this.filter, catchUpPage(this.maxBehind), after != null);
      void this.catchUp(first).catch((err) => this.end('error', err));
    } catch (err) {
      this.end('closed');
      throw err;
    }
  }

  private async catchUp(page: FeedPage): Promise<void> {
    for (;;) {
      for (const item of page.items) this.deliver({ ...item, companyId: this.companyId });
      if (!page.hasMore || this.ended) break;
      while (this.queue.length > catchUpPage(this.maxBehind) && !this.ended) await new Promise<void>((resolve) => (this.space = resolve));
      page = await readFeed(this.ctx, page.next, this.filter, catchUpPage(this.maxBehind), true);
    }
    // Everything at or before page.next was read by the catch-up.
    if (page.next > this.last) this.last = page.next;
    const buffered = this.buffer ?? [];
    this.buffer = null;
    for (const item of buffered) this.deliver(item);
  }

  /** An event from the hub (its company's, in position order). */
  offer(item: LiveItem): void {
    if (this.ended || !typeMatches(this.filter, item.event.type)) return;
    if (this.buffer) {
      if (this.buffer.length >= this.maxBehind) return this.end('behind');
      this.buffer.push(item);
    } else this.deliver(item);
  }

  private deliver(item: LiveItem): void {
    if (this.ended || item.position <= this.last) return;
    this.last = item.position;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      return resolve({ value: item, done: false });
    }
    if (this.queue.length >= this.maxBehind) return this.end('behind');
    this.queue.push(item);
    this.queued?.();
  }

  /**
   * Consumption in batches instead of `next()`: `wake` runs after each event queued (and at once
   * when some already are); the consumer then takes what it can send. An event the consumer has
   * not taken counts as behind, as one `next()` has not returned does.
   */
  onQueued(wake: () => void): void {
    this.queued = wake;
    if (this.queue.length) wake();
  }

  /** How many events are queued. */
  get pending(): number {
    return this.queue.length;
  }

  /** Up to `max` queued events, oldest first, taken off the queue. */
  take(max: number): LiveItem[] {
    const items = this.queue.length <= max ? this.queue.splice(0) : this.queue.splice(0, max);
    this.roomMade();
    return items;
  }

  /** Resolves when the subscription ends, for whatever reason. */
  whenEnded(): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve) => this.endings.push(resolve));
  }

  /** Ends the subscription (the hub: revoked; the subscriber: behind). */
  end(reason: EndReason, err?: unknown): void {
    if (err) logger.warn({ err }, 'live subscription failed');
    if (this.ended) return;
    this.ended = reason;
    this.queue = [];
    this.buffer = null;
    this.hub.remove(this);
    this.waiting?.({ value: undefined, done: true });
    this.waiting = null;
    this.space?.();
    this.queued = null;
    for (const resolve of this.endings.splice(0)) resolve();
    if (reason !== 'closed') this.onEnd(reason);
  }

  /** The catch-up waits while more than a page is queued. */
  private roomMade(): void {
    if (this.space && this.queue.length <= catchUpPage(this.maxBehind)) {
      this.space();
      this.space = null;
    }
  }

  next(): Promise<IteratorResult<LiveItem>> {
    const item = this.queue.shift();
    this.roomMade();
    if (item) return Promise.resolve({ value: item, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<LiveItem>> {
    this.end('closed');
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(err?: unknown): Promise<IteratorResult<LiveItem>> {
    this.end('closed');
    return Promise.reject(err instanceof Error ? err : new AppError('INTERNAL', 'subscription failed'));
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<LiveItem> {
    return this;
  }
}
