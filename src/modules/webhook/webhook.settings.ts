import { webhookConfig, type WebhookConfig } from '../../config';

// The webhook settings of this process (docs/webhooks.md): set from the configuration by
// createApp and by the worker; until then, read from the environment.
let current: WebhookConfig | undefined;

export function configureWebhooks(config: WebhookConfig): void {
  current = config;
}

export function webhookSettings(): WebhookConfig {
  current ??= webhookConfig();
  return current;
}
