import { dispatchEvents } from '../../../src/modules/webhook/webhook.dispatch';
import { createTenant, gql, rest, useTestApp } from '../../helpers/app';
import { makeInvoice } from '../../helpers/billing';
import { readAll } from '../../helpers/events';
import { keyFor } from '../../helpers/people';

// The feed and webhook deliveries show a key only the events of resources it may read (docs/people-and-access.md).

const t = useTestApp({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });

const resources = (events: Array<{ resource: string }>) => [...new Set(events.map((e) => e.resource))].sort();

describe('events by scope', () => {
  it('a jobs:read key sees only job and visit events; technicians cannot read the feed', async () => {
    const owner = await createTenant(t);
    const invoice = await makeInvoice(t, owner);
    expect((await rest(t, owner).post(`/jobs/${invoice.job_uuid}/visits`, { title: 'First visit' })).status).toBe(200);
    expect(resources((await readAll(t, owner)).events)).toEqual(['customer', 'invoice', 'job', 'visit']);

    const jobsOnly = await keyFor(t, owner, { scopes: ['events:read', 'jobs:read'] });
    const seen = await readAll(t, jobsOnly);
    expect(resources(seen.events)).toEqual(['job', 'visit']);
    // Its own type filter narrows further, never wider.
    expect(resources((await readAll(t, jobsOnly, undefined, 'types=invoice.*,job.created')).events)).toEqual(['job']);
    const invoiceEvent = (await readAll(t, owner)).events.find((e) => e.resource === 'invoice');
    expect((await rest(t, jobsOnly).get(`/events/${invoiceEvent.id}`)).status).toBe(404);
    expect((await rest(t, owner).get(`/events/${invoiceEvent.id}`)).status).toBe(200);
    const g = await gql(t, jobsOnly, '{ events { items { resource } } }');
    expect(resources(g.data.events.items)).toEqual(['job', 'visit']);

    const tech = await keyFor(t, owner, { role: 'technician' });
    const refused = await rest(t, tech).get('/events');
    expect(refused.status).toBe(403);
    expect(refused.body.error.details).toEqual([{ field: 'scope', message: 'needs events:read' }]);
    expect((await gql(t, tech, '{ eventsHead }')).errors?.[0].extensions.code).toBe('PERMISSION_DENIED');
  });

  it('a webhook endpoint gets only the events its key could read', async () => {
    const owner = await createTenant(t);
    const narrow = await keyFor(t, owner, { scopes: ['webhooks:write', 'jobs:read'] });
    const made = await rest(t, narrow).post('/webhook_endpoints', { url: 'http://127.0.0.1:9/hook' });
    expect(made.status).toBe(200);
    const wide = await rest(t, owner).post('/webhook_endpoints', { url: 'http://127.0.0.1:9/all' });
    await makeInvoice(t, owner);
    while ((await dispatchEvents(t.orm)) > 0);
    const typesOf = async (uuid: string) => [...new Set((await rest(t, owner).get(`/webhook_endpoints/${uuid}/deliveries?limit=100`)).body.data.deliveries.map((d: { event_type: string }) => d.event_type.split('.')[0]))].sort();
    expect(await typesOf(made.body.data.uuid)).toEqual(['job']);
    expect(await typesOf(wide.body.data.uuid)).toEqual(['customer', 'invoice', 'job']);
  });
});
