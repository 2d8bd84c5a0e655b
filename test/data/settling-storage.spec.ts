import { TransactionContext, type EntityManager } from '@mikro-orm/core';
import { ormStorages, SettlingStorage } from '../../src/db/settling-storage';
import { createTenant, gql, rest, useTestApp } from '../helpers/app';

// MikroORM's async storages turn themselves off when their last run has settled, so that the
// promise hook of Node 20 is on only while a transaction or a flush is in progress
// (src/db/settling-storage.ts, docs/architecture.md "Promise hooks"). jest loads MikroORM after
// test/setup/settling-storage.ts, as the entry points do.
const t = useTestApp();

const allOff = () => ormStorages().every((s) => !s.active);
// MikroORM's own (a private static of TransactionContext).
const transactions = (TransactionContext as unknown as { storage: SettlingStorage<unknown> }).storage;
const pause = () => new Promise((r) => setImmediate(r));

describe('MikroORM storages that settle', () => {
  it('are what MikroORM made: its transaction context among them', () => {
    expect(ormStorages().length).toBeGreaterThanOrEqual(3);
    expect(ormStorages().every((s) => s instanceof SettlingStorage)).toBe(true);
    expect(ormStorages()).toContain(transactions);
  });

  it('keep a transaction on its own EntityManager across its awaits, then turn off once it is done', async () => {
    const em = t.orm.em.fork();
    const seen: Array<EntityManager | undefined> = [];
    await em.transactional(async (tx) => {
      seen.push(TransactionContext.getEntityManager());
      await tx.getConnection().execute('select 1', [], 'all', tx.getTransactionContext());
      await pause();
      seen.push(TransactionContext.getEntityManager());
      expect(transactions.active).toBe(true);
    });
    expect(seen).toEqual([expect.anything(), seen[0]]);
    expect(seen[0]).not.toBe(em);
    expect(TransactionContext.getEntityManager()).toBeUndefined();
    expect(allOff()).toBe(true);
  });

  it('stay on for a transaction still running when another one ends', async () => {
    let releaseLong!: () => void;
    const longMayEnd = new Promise<void>((r) => (releaseLong = r));
    const inLong: Array<EntityManager | undefined> = [];
    const long = t.orm.em.fork().transactional(async (tx) => {
      inLong.push(TransactionContext.getEntityManager());
      await longMayEnd;
      await tx.getConnection().execute('select 1', [], 'all', tx.getTransactionContext());
      inLong.push(TransactionContext.getEntityManager());
      return tx;
    });
    await t.orm.em.fork().transactional(async () => pause());
    expect(transactions.active).toBe(true);
    releaseLong();
    const tx = await long;
    expect(inLong).toEqual([tx, tx]);
    expect(allOff()).toBe(true);
  });

  it('turn off after a callback that throws, and after a transaction rolled back', async () => {
    const storage = ormStorages()[0];
    expect(() => storage.run('x', () => {
      throw new Error('refused');
    })).toThrow('refused');
    await expect(t.orm.em.fork().transactional(async () => {
      await pause();
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    expect(allOff()).toBe(true);
  });

  it('are off after writes through both surfaces, whose answers are as without them', async () => {
    const a = await createTenant(t);
    const created = await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'Lovelace' });
    expect(created.status).toBe(200);
    expect(allOff()).toBe(true);
    const updated = await gql(t, a, `mutation ($u: UUID!) { updateCustomer(uuid: $u, input: { lastName: "Byron" }) { lastName } }`, { u: created.body.data.uuid });
    expect(updated.data.updateCustomer).toEqual({ lastName: 'Byron' });
    expect(allOff()).toBe(true);
    const read = await rest(t, a).get(`/customers/${created.body.data.uuid}`);
    expect(read.body.data).toMatchObject({ first_name: 'Ada', last_name: 'Byron' });
  });
});
