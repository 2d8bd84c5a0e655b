import { Client } from 'pg';
import { logger } from '../../logger';

/** Channel of migration 0027's trigger: a transaction that wrote events committed. */
export const EVENTS_CHANNEL = 'fsc_events';

/**
 * A listening connection of its own on the direct database URL (as the key cache's,
 * src/auth/key-cache.ts), reconnecting after a loss. `onWake` runs on every notification and after
 * every (re)connection: notifications sent while the connection was away are lost, so a reader
 * that reads the feed on each wake loses nothing.
 */
export class PgListener {
  private client: Client | null = null;
  private stopped = false;
  private reconnect: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly channels: string[],
    private readonly onWake: (channel: string) => void,
    private readonly reconnectMs = 1_000,
  ) {}

  get listening(): boolean {
    return this.client !== null;
  }

  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnect) clearTimeout(this.reconnect);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private lost(client: Client, reason: string, err?: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    logger.warn({ err, reason }, 'live updates: listening connection lost; reconnecting');
    this.reconnect = setTimeout(() => void this.connect(), this.reconnectMs);
    this.reconnect.unref();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.url, keepAlive: true, application_name: 'fsc-live', connectionTimeoutMillis: 5_000 });
    this.client = client;
    client.on('error', (err) => this.lost(client, 'error', err));
    client.on('end', () => this.lost(client, 'end'));
    client.on('notification', (n) => {
      if (this.client === client) this.onWake(n.channel);
    });
    try {
      await client.connect();
      for (const c of this.channels) await client.query(`listen ${c}`);
      if (this.client !== client) return;
      for (const c of this.channels) this.onWake(c);
    } catch (err) {
      this.lost(client, 'connect', err);
    }
  }
}
