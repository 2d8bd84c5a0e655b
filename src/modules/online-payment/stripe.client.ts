import type Stripe from 'stripe';
import type { StripeConfig } from '../../config';
import { AppError } from '../../errors/app-error';

// The one Stripe client of the process (docs/payments.md), set once by createApp: the official
// library pointed at STRIPE_API_BASE (Stripe's API, or a compatible server such as the tests'
// stand-in). Unset STRIPE_SECRET_KEY: every online-payment route answers 409 PAYMENTS_NOT_CONFIGURED.

let client: Stripe | null = null;
let secret: string | null = null;

export function configureStripe(config: StripeConfig | null): void {
  if (!config) {
    client = null;
    secret = null;
    return;
  }
  const base = config.apiBase;
  const protocol = base.protocol === 'http:' ? 'http' : 'https';
  // The library loads only when payments are configured.
  const StripeClient = ((m: { default?: typeof Stripe }) => m.default ?? (m as unknown as typeof Stripe))(require('stripe'));
  client = new StripeClient(config.secretKey, {
    host: base.hostname,
    port: base.port ? Number(base.port) : protocol === 'http' ? 80 : 443,
    protocol,
    // Retries carry the same Idempotency-Key, so a call is never made twice.
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'field-service-crm' },
  });
  secret = config.webhookSecret;
}

export function paymentsConfigured(): boolean {
  return client !== null;
}

/** The Stripe client, or 409 PAYMENTS_NOT_CONFIGURED. */
export function stripe(): Stripe {
  if (!client) throw new AppError('PAYMENTS_NOT_CONFIGURED', 'Online payments are not configured on this server (STRIPE_SECRET_KEY)');
  return client;
}

/** The signing secret of Stripe's webhook events (STRIPE_WEBHOOK_SECRET). */
export function webhookSecret(): string {
  stripe();
  return secret!;
}
