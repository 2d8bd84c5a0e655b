import type { EventSubscriber } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { logger } from '../logger';

// The sweep of migration 0035's write marks (docs/scaling.md, "Reads on replicas"): committed
// marks become each company's WAL position (company_wal.lsn), which src/db/replicas.ts compares
// with a replica's replay position. Every server and worker sweeps, replicas or not, so that the
// marks never pile up.

/** Committed marks deleted, their companies' positions raised to the current one, in one statement. */
export const SWEEP_SQL =
  `with done as (delete from company_write_marks returning company_uuid) ` +
  // One row per company (the position is read per row and moves while the statement deletes: a
  // company of several marks must not be inserted twice, which ON CONFLICT refuses).
  `insert into company_wal (company_uuid, lsn) select company_uuid, pg_current_wal_insert_lsn() from (select distinct company_uuid from done) as d ` +
  `on conflict (company_uuid) do update set lsn = greatest(company_wal.lsn, excluded.lsn)`;

/**
 * Records the companies' positions of committed writes: after every commit of this process
 * (coalesced: one sweep at a time, one more if commits came meanwhile) and every `everyMs` (writes
 * of processes that died before their sweep, by hand in SQL). Reads are right without it (a mark
 * sends them to the current position); it makes them go to replicas sooner.
 */
export class WriteSweeper {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly orm: MikroORM,
    private readonly everyMs = 1_000,
  ) {}

  start(): this {
    sweepers.add(this);
    this.timer = setInterval(() => this.soon(), this.everyMs);
    this.timer.unref();
    return this;
  }

  /** A sweep now, or right after the one running. */
  soon(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.orm.em
      .getConnection()
      .execute(SWEEP_SQL)
      .then(
        () => undefined,
        (err) => logger.debug({ err }, 'write-position sweep failed; the next one retries'),
      )
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.soon();
        }
      });
  }

  /** Resolves once the sweep running (if any) has ended. */
  async settle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    sweepers.delete(this);
    if (this.timer) clearInterval(this.timer);
    await this.settle();
  }
}

const sweepers = new Set<WriteSweeper>();

/** After each committed transaction of any EntityManager of the process: a sweep soon (ormOptions registers it). */
export class SweepAfterCommit implements EventSubscriber {
  afterTransactionCommit(): void {
    for (const s of sweepers) s.soon();
  }
}

