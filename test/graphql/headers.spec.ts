import request from 'supertest';
import { createTenant, useTestApp } from '../helpers/app';

// Apollo's cache-control plugin is replaced by a plugin that sends what it always sent here.
const t = useTestApp();

describe('GraphQL response headers', () => {
  it('answers Cache-Control: no-store, for data and for errors', async () => {
    const a = await createTenant(t);
    const ok = await request(t.app).post('/graphql').set('Authorization', `Bearer ${a.key}`).send({ query: '{ customers(limit: 1) { pagination { total } } }' });
    expect(ok.status).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    const bad = await request(t.app).post('/graphql').set('Authorization', `Bearer ${a.key}`).send({ query: '{ nope }' });
    expect(bad.status).toBe(400);
    expect(bad.headers['cache-control']).toBe('no-store');
  });

  it('reports the same cost on repeated requests (cost is measured once per document and variables)', async () => {
    const a = await createTenant(t);
    const query = 'query Q($limit: Int) { invoices(limit: $limit) { items { uuid payments { uuid } } } }';
    const costs = [];
    for (const limit of [10, 20, 10]) {
      const res = await request(t.app).post('/graphql').set('Authorization', `Bearer ${a.key}`).send({ query, variables: { limit } });
      expect(res.status).toBe(200);
      costs.push(res.body.extensions.cost.requestedQueryCost);
    }
    expect(costs[0]).toBe(costs[2]);
    expect(costs[1]).toBeGreaterThan(costs[0]);
  });
});
