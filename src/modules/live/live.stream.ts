import type { RequestHandler } from 'express';
import { encodeCursor } from '../event/event.service';
import type { FeedHub } from './live.hub';
import { openSubscription } from './live.service';
import { sseData } from './live.render';

/**
 * GET /api/v1/events/stream (docs/live-updates.md): the feed as Server-Sent Events. Each event's
 * `id:` is its cursor (a reconnecting EventSource sends it back as Last-Event-ID), `event:` its
 * type, `data:` the event as GET /api/v1/events shows it; a comment line every `heartbeatMs`
 * while idle keeps proxies from closing the stream. A client too far behind: the stream ends.
 */
export function eventStream(hub: FeedHub, heartbeatMs: number): RequestHandler {
  return async (req, res, next) => {
    let heartbeat: NodeJS.Timeout | undefined;
    try {
      const q = req.query as Record<string, string | undefined>;
      const after = req.header('last-event-id') || q.after;
      // Too far behind, or the key stopped working: the stream ends (a write waiting for the client ends too).
      const s = await openSubscription(hub, req.ctx!, req.headers.authorization!, { types: q.types, after }, () => res.end());
      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
      res.write(': stream open\n\n');
      let idle = true;
      heartbeat = setInterval(() => {
        if (idle) res.write(': heartbeat\n\n');
        idle = true;
      }, heartbeatMs);
      req.on('close', () => void s.return());
      for await (const item of s) {
        idle = false;
        const data = sseData(item);
        if (!res.write(`id: ${encodeCursor(item.position)}\nevent: ${item.event.type}\ndata: ${data}\n\n`)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
      }
      res.end();
    } catch (err) {
      if (res.headersSent) res.end();
      else next(err);
    } finally {
      clearInterval(heartbeat);
    }
  };
}
