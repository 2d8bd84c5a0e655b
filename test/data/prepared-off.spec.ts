import { SWEEP_SQL } from '../../src/db/write-sweep';
import { createTenant, gql, rest, useTestApp } from '../helpers/app';

// DB_PREPARED_STATEMENTS=false (for a pooler that does not keep prepared statements): the same
// answers, every statement through MikroORM's execute (src/data/prepared.ts). Such a pooler cannot
// LISTEN either: API_KEY_CACHE=false, as docs/access-and-operations.md says, so every request looks its key up.
const t = useTestApp({ DB_PREPARED_STATEMENTS: 'false', API_KEY_CACHE: 'false' });

describe('DB_PREPARED_STATEMENTS=false', () => {
  it('answers lists and the key lookup through MikroORM, with the same results', async () => {
    const a = await createTenant(t);
    await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'Lovelace' });
    const conn = t.orm.em.getConnection();
    const spy = jest.spyOn(conn, 'execute');
    try {
      const list = await rest(t, a).get('/customers?limit=5');
      expect(list.body.data.customers.map((c: { first_name: string }) => c.first_name)).toEqual(['Ada']);
      const page = await gql(t, a, `{ customers(limit: 5) { items { firstName } pagination { total } } }`);
      expect(page.data.customers).toEqual({ items: [{ firstName: 'Ada' }], pagination: { total: 1 } });
      // Key lookup and list, for each of the two requests (the write-position sweep that may follow
      // the create's commit in the background is no request's statement, src/db/write-sweep.ts).
      expect(spy.mock.calls.filter((c) => c[0] !== SWEEP_SQL)).toHaveLength(4);
    } finally {
      spy.mockRestore();
    }
  });
});
