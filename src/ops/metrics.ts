import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import ipaddr from 'ipaddr.js';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { clientAddress } from '../auth/ip-allow-list';
import type { Orm } from '../db/orm';
import { AppError } from '../errors/app-error';
import type { RequestObserver } from './request-log';
import { feedLag } from '../modules/event/event.maintenance';
import { registerWebhookMetrics } from '../modules/webhook/webhook.metrics';

interface TarnPool {
  max: number;
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

export interface Metrics {
  registry: Registry;
  /** Counts a request at its end, with its latency, by method, route pattern and status (src/ops/request-log.ts calls it). */
  observe: RequestObserver;
  /** GET /metrics in the Prometheus text format. */
  endpoint: RequestHandler;
}

/** Prometheus metrics of one app (a registry of its own, so tests can build several apps). */
export function createMetrics(orm: Orm, o: { token: string | null; trustProxy: boolean }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests by method, route pattern and status', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // Read at scrape time from knex's tarn pool.
  const pool = (): TarnPool | undefined => (orm.em.getConnection().getKnex().client as { pool?: TarnPool }).pool;
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections by state (used, free, pending_acquires, pending_creates)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const p = pool();
      this.set({ state: 'used' }, p?.numUsed() ?? 0);
      this.set({ state: 'free' }, p?.numFree() ?? 0);
      this.set({ state: 'pending_acquires' }, p?.numPendingAcquires() ?? 0);
      this.set({ state: 'pending_creates' }, p?.numPendingCreates() ?? 0);
    },
  });
  new Gauge({
    name: 'db_pool_max_connections',
    help: 'Maximum size of the database pool (DB_POOL_MAX)',
    registers: [registry],
    collect() {
      this.set(pool()?.max ?? 0);
    },
  });

  // How far the event feed lags (docs/events.md): read at scrape time.
  new Gauge({
    name: 'events_feed_lag_seconds',
    help: 'Event feed lag: age of the oldest committed event without a feed position (unassigned), and of the oldest running writing transaction, which holds back the events of later ones (oldest_writer)',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      const lag = await feedLag(orm);
      this.set({ kind: 'unassigned' }, lag.unassigned ?? 0);
      this.set({ kind: 'oldest_writer' }, lag.oldestWriter ?? 0);
    },
  });

  registerWebhookMetrics(registry, orm);

  const observe: RequestObserver = (method, route, status, seconds) => {
    const labels = { method, route, status: String(status) };
    requests.inc(labels);
    duration.observe(labels, seconds);
  };

  const endpoint: RequestHandler = async (req, res, next) => {
    try {
      authorizeScrape(req, o.token, o.trustProxy);
      res.setHeader('Content-Type', registry.contentType);
      res.send(await registry.metrics());
    } catch (err) {
      next(err);
    }
  };
  return { registry, observe, endpoint };
}

// With METRICS_TOKEN set, scrapers send it as a Bearer token; without one, only loopback clients
// may read the metrics (they tell request volumes, which are not for the public).
function authorizeScrape(req: Request, token: string | null, trustProxy: boolean): void {
  if (token) {
    if (!sameSecret(req.headers.authorization ?? '', `Bearer ${token}`)) throw new AppError('UNAUTHORIZED', 'Metrics need Authorization: Bearer <METRICS_TOKEN>');
    return;
  }
  const address = clientAddress(req, trustProxy);
  if (!address || ipaddr.parse(address).range() !== 'loopback') {
    throw new AppError('UNAUTHORIZED', 'Metrics are served to loopback clients only unless METRICS_TOKEN is set');
  }
}

function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
