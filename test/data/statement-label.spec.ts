import request from 'supertest';
import { createTenant, useTestApp } from '../helpers/app';
import { watchStatements } from '../helpers/statements';
import { SWEEP_SQL } from '../../src/db/write-sweep';
import { makeJob, makeVisit, slot } from '../helpers/visits';

// Every SQL statement of a request carries the request's label in MikroORM's log context, which
// the DEBUG_SQL log prints as `[query] (request <X-Request-Id>) …`: the benchmark counts a GraphQL
// page's statements by it (bench/run.ts statementsOf), so that the background workers' statements
// logged at the same time are not counted. Here nothing else runs: every statement of the request
// (as the driver sends them: pg's Client.query, for statements run through knex and those run
// on a pooled connection directly, src/data/orm-adapter.ts runPooled) must be logged with its label.

const t = useTestApp();

it('labels every statement of a request with its request id, reads and writes, REST and GraphQL', async () => {
  const a = await createTenant(t);
  const job = await makeJob(t, a);
  await makeVisit(t, a, job.uuid, slot(9, 10));
  const logger = t.orm.config.getLogger();
  const labels: Array<string | undefined> = [];
  const sent = watchStatements();
  const original = logger.logQuery.bind(logger);
  const spy = jest.spyOn(logger, 'logQuery').mockImplementation((context) => {
    // The write-position sweep after a commit is no request's statement (watchStatements leaves it out too).
    if (context.query !== SWEEP_SQL) labels.push(context.label);
    return original(context);
  });
  const auth = { Authorization: `Bearer ${a.key}` };
  const GQL_PAGE = `{ invoices(limit: 10) { items { uuid customer { firstName } payments { amount } } pagination { total } } }`;
  const requests: Array<[string, (id: string) => request.Test]> = [
    ['GraphQL page', (id) => request(t.app).post('/graphql').set(auth).set('X-Request-Id', id).send({ query: GQL_PAGE })],
    ['GraphQL page, key kept', (id) => request(t.app).post('/graphql').set(auth).set('X-Request-Id', id).send({ query: GQL_PAGE })],
    ['REST calendar', (id) => request(t.app).get(`/api/v1/visits?user_id=${a.userId}&from=2026-06-01T00:00:00Z&to=2026-06-08T00:00:00Z`).set(auth).set('X-Request-Id', id)],
    ['REST create', (id) => request(t.app).post('/api/v1/customers').set(auth).set('X-Request-Id', id).send({ first_name: 'Lab', last_name: 'Eled' })],
    // Its key's purge, claim and answer (src/data/idempotency.ts).
    ['REST create with an Idempotency-Key', (id) => request(t.app).post('/api/v1/customers').set(auth).set('X-Request-Id', id).set('Idempotency-Key', `label-${id}`).send({ first_name: 'Lab', last_name: 'Eled' })],
    ['REST visit update', (id) => request(t.app).post(`/api/v1/jobs/${job.uuid}/visits`).set(auth).set('X-Request-Id', id).send(slot(11, 12))],
  ];
  try {
    for (const [i, [what, send]] of requests.entries()) {
      labels.length = 0;
      sent.reset();
      const id = `label-test-${i}`;
      const res = await send(id);
      expect([what, res.status]).toEqual([what, 200]);
      expect([what, sent.count > 0]).toEqual([what, true]);
      expect([what, labels.length]).toEqual([what, sent.count]);
      expect([what, labels.filter((l) => l !== `request ${id}`).map(String)]).toEqual([what, []]);
    }
  } finally {
    sent.stop();
    spy.mockRestore();
  }
});
