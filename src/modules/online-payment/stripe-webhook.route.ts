import express, { Router } from 'express';
import type { Orm } from '../../db/orm';
import { AppError } from '../../errors/app-error';
import { asAppError } from '../../errors/db-error';
import { toHttpError } from '../../errors/to-http-error';
import { logger } from '../../logger';
import { handleStripeEvent } from './stripe-events';
import { stripe, webhookSecret } from './stripe.client';

// POST /api/v1/payment_webhooks/stripe (no API key): the body as Stripe signed it, its
// Stripe-Signature checked by the official library (a bad or older than five minutes signature:
// 400, nothing recorded), then the event handled in one transaction (src/modules/online-payment/stripe-events.ts).

export const STRIPE_WEBHOOK_PATH = '/api/v1/payment_webhooks/stripe';

export function stripeWebhookRouter(orm: Orm): Router {
  const router = Router();
  router.post('/', express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    try {
      const client = stripe();
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      let event;
      try {
        event = client.webhooks.constructEvent(body, req.header('stripe-signature') ?? '', webhookSecret());
      } catch (err) {
        throw AppError.field('Stripe-Signature', `is not valid: ${(err as Error).message}`);
      }
      const outcome = await handleStripeEvent(orm.em, event);
      res.json({ success: true, data: { received: true, event_id: event.id, outcome } });
    } catch (err) {
      const app = asAppError(err);
      if (!app) logger.error({ err, requestId: req.requestId }, 'stripe webhook failed');
      const { status, body } = toHttpError(app ?? new AppError('INTERNAL', 'Internal server error'));
      res.status(status).json(body);
    }
  });
  return router;
}
