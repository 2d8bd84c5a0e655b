import fc from 'fast-check';
import { webhookConfig } from '../../../src/config';
import { claim, type Claimed, type Outcome } from '../../../src/modules/webhook/webhook.delivery';
import { record, recordAll } from '../../../src/modules/webhook/webhook.record';
import { createTenant, rest, useTestApp } from '../../helpers/app';

// The worker records outcomes in batches (recordAll, one UPDATE for the batch); the result must be
// what recording them one by one (record, in the same order) gives: deliveries, their attempt
// logs, fencing of lost claims, and each endpoint's failure clock and disabling. Two endpoints with
// the same deliveries get the same outcomes, one path each. No worker runs here.

const env = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCALE: '0' };
const t = useTestApp(env);
const cfg = webhookConfig(env);

const OUTCOMES: Outcome[] = [
  { statusCode: 200, error: null, excerpt: 'ok', durationMs: 3, retryAfterS: null },
  { statusCode: 204, error: null, excerpt: '', durationMs: 1, retryAfterS: null },
  { statusCode: 500, error: 'HTTP 500', excerpt: 'boom', durationMs: 7, retryAfterS: null },
  { statusCode: 410, error: 'HTTP 410', excerpt: 'gone', durationMs: 2, retryAfterS: null },
  { statusCode: 503, error: 'HTTP 503', excerpt: '', durationMs: 2, retryAfterS: 30 },
  { statusCode: null, error: 'timeout after 1000 ms', excerpt: null, durationMs: 1000, retryAfterS: null },
];

const sql = <T>(text: string, params: unknown[] = []) => t.orm.em.getConnection().execute<T[]>(text, params);

async function state(endpoint: string) {
  const deliveries = await sql<Record<string, unknown>>(
    `select status, attempts, last_status_code, last_error, delivered_at is not null as delivered, next_attempt_at is not null as next, locked_until is null as unlocked,
      (select jsonb_agg(x - 'at' order by n) from jsonb_array_elements(attempt_log) with ordinality as a(x, n)) as log
    from webhook_deliveries where endpoint_uuid = ? order by event_id`,
    [endpoint],
  );
  const [ep] = await sql(`select status, disabled_reason, failing_since is not null as failing from webhook_endpoints where uuid = ?`, [endpoint]);
  return { deliveries, ep };
}

it('recording a batch gives what recording its outcomes one by one gives', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 6 }),
      fc.array(fc.record({ delivery: fc.nat(), outcome: fc.nat({ max: OUTCOMES.length - 1 }), lost: fc.boolean() }), { minLength: 1, maxLength: 12 }),
      fc.constantFrom('fresh', 'failing', 'stale'),
      async (n, steps, clock) => {
        // claim() takes the due deliveries of every company, oldest first: an earlier run's retries
        // (due at once, WEBHOOK_RETRY_SCALE 0) would fill its batch and leave this run's unclaimed.
        await sql(`delete from webhook_deliveries`);
        const a = await createTenant(t);
        const eps: string[] = [];
        for (let i = 0; i < 2; i++) eps.push((await rest(t, a).post('/webhook_endpoints', { url: `http://127.0.0.1:9/${i}` })).body.data.uuid);
        if (clock !== 'fresh') await sql(`update webhook_endpoints set failing_since = now() - make_interval(days => ?) where company_uuid = ?`, [clock === 'stale' ? 6 : 1, a.companyUuid]);
        for (let i = 0; i < n; i++) {
          // Due a second ago: next_attempt_at keeps milliseconds, and now() rounded up to them is
          // later than a claim made within half a millisecond of the insert.
          await sql(`insert into webhook_deliveries (endpoint_uuid, company_uuid, event_id, event_type, body, next_attempt_at) select uuid, company_uuid, ?, 'webhook.test', '{}', now() - interval '1 second' from webhook_endpoints where company_uuid = ?`, [`evt_test_${i}`, a.companyUuid]);
        }
        const claimed = await claim(t.orm, 100, 60);
        const of = (ep: string) => claimed.filter((c) => c.endpoint_uuid === ep).sort((x, y) => x.event_id.localeCompare(y.event_id));
        const [one, batch] = [of(eps[0]), of(eps[1])];
        expect(one).toHaveLength(n);
        // Each delivery's outcome at most once (a claim records once); lost claims were taken over.
        const seen = new Set<number>();
        const plan = steps.filter((s) => !seen.has(s.delivery % n) && seen.add(s.delivery % n));
        const lose = async (c: Claimed) => sql(`update webhook_deliveries set attempts = attempts + 1 where uuid = ?`, [c.uuid]);
        const kept1: boolean[] = [];
        for (const s of plan) {
          const c = one[s.delivery % n];
          if (s.lost) await lose(c);
          kept1.push(await record(t.orm, c, OUTCOMES[s.outcome], cfg));
        }
        for (const s of plan) if (s.lost) await lose(batch[s.delivery % n]);
        const kept2 = await recordAll(t.orm, plan.map((s) => ({ d: batch[s.delivery % n], o: OUTCOMES[s.outcome] })), cfg);
        expect(kept2).toEqual(kept1);
        expect(await state(eps[1])).toEqual(await state(eps[0]));
      },
    ),
    { numRuns: 40 },
  );
});
