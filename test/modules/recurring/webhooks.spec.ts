import { webhookConfig } from '../../../src/config/index';
import { startWebhookWorker, type WebhookWorker } from '../../../src/modules/webhook/webhook.worker';
import { issueDue } from '../../../src/modules/recurring/recurring.generate';
import { createTenant, rest, useTestApp } from '../../helpers/app';
import { startReceiver, until } from '../../helpers/webhook-receiver';

// Generated records reach webhook endpoints as any event does (docs/recurring-work.md): the
// visits a schedule writes and the invoices an agreement creates, with actor system.

const env = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCALE: '0.001' };
const t = useTestApp(env);

let worker: WebhookWorker | undefined;
afterEach(() => worker?.stop());

it('delivers visit.created of generated visits and invoice.created of an agreement, actor system', async () => {
  const receiver = await startReceiver();
  try {
    worker = startWebhookWorker(t.orm, webhookConfig(env));
    const a = await createTenant(t);
    const ep = await rest(t, a).post('/webhook_endpoints', { url: receiver.url(), event_types: ['visit.created', 'invoice.created', 'job.schedule_changed'] });
    expect(ep.status).toBe(200);
    const c = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'L' })).body.data;
    const j = (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'Plan' })).body.data;
    await rest(t, a).put(`/jobs/${j.uuid}/schedule`, { rrule: 'FREQ=WEEKLY', starts_on: '2031-01-06', all_day: true, horizon_days: 7 });
    const r = (await rest(t, a).post('/recurring_invoices', { customer_uuid: c.uuid, job_uuid: j.uuid, rrule: 'FREQ=MONTHLY', starts_on: '2031-01-01', line_items: [{ unit_price: 10 }] })).body.data;
    await rest(t, a).put(`/jobs/${j.uuid}/schedule`, { rrule: 'FREQ=DAILY', starts_on: '2026-01-01', all_day: true, horizon_days: 7 });
    expect(await issueDue(t.orm, new Date('2031-01-01T12:00:00Z'))).toBe(1);
    await until(() => receiver.received.length >= 10, 'the deliveries');
    const events = receiver.received.map((x) => JSON.parse(x.body) as { type: string; actor: { type: string }; data: { object: { recurring_invoice_uuid?: string } } });
    const byType = (type: string) => events.filter((e) => e.type === type);
    expect(byType('job.schedule_changed')).toHaveLength(2);
    expect(byType('visit.created')).toHaveLength(7);
    expect(byType('visit.created').every((e) => e.actor.type === 'system')).toBe(true);
    expect(byType('invoice.created')).toEqual([expect.objectContaining({ actor: expect.objectContaining({ type: 'system' }), data: expect.objectContaining({ object: expect.objectContaining({ recurring_invoice_uuid: r.uuid }) }) })]);
  } finally {
    await receiver.close();
  }
});
