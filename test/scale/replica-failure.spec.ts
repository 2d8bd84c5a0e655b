import { Client } from 'pg';
import { replicaFailure } from '../../src/db/replicas';
import { AppError } from '../../src/errors/app-error';
import { asAppError, unavailable } from '../../src/errors/db-error';
import { useDbClient, workerDatabase } from '../helpers/app';

// A replica's failure (src/db/replicas.ts: the read then runs again on the primary) covers every
// error the API would answer 503 SERVICE_UNAVAILABLE for (src/errors/db-error.ts), among them the
// ones pg gives for a connection whose server went away, as a replica that stops leaves its pool.

const db = useDbClient();

async function errorOf(f: () => Promise<unknown>): Promise<unknown> {
  try {
    await f();
  } catch (err) {
    return err;
  }
  throw new Error('no error');
}

describe('a replica failure', () => {
  it('is the error of a pooled connection its server closed, as pg reports it', async () => {
    const client = new Client({ connectionString: await workerDatabase() });
    const closed = new Promise<unknown>((resolve) => client.on('error', resolve));
    await client.connect();
    const { pid } = (await client.query('select pg_backend_pid() as pid')).rows[0];
    await db.query('select pg_terminate_backend($1)', [pid]);
    // The server's goodbye (57P01) reaches the idle client; its next query is refused by pg itself.
    const goodbye = await closed;
    const next = await errorOf(() => client.query('select 1'));
    expect(String((next as Error).message)).toMatch(/not queryable/);
    for (const err of [goodbye, next]) {
      expect(unavailable(err)).not.toBeNull();
      expect(replicaFailure(err)).toBe(true);
      // Also once a layer has turned it into the 503 it would answer (src/rest/pipeline.ts does).
      expect(replicaFailure(asAppError(err))).toBe(true);
    }
    await client.end().catch(() => undefined);
  });

  it('is every error the API answers 503 for', () => {
    const errors: unknown[] = [
      { code: '57P01' },
      { code: '08006' },
      { code: 'ECONNREFUSED' },
      Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' }),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('Connection terminated unexpectedly'),
      new Error('the database system is starting up'),
      new Error('Transaction query already complete, run with DEBUG=knex:tx for more info'),
      Object.assign(new Error('wrapped'), { cause: { code: '57P01' } }),
    ];
    for (const err of errors) {
      expect(unavailable(err) ?? unavailable((err as { cause?: unknown }).cause)).not.toBeNull();
      expect([String(err), replicaFailure(err)]).toEqual([String(err), true]);
    }
  });

  it("is not an error of the request's own", () => {
    const busy = new AppError('SERVICE_UNAVAILABLE', 'Too many documents are being rendered; retry shortly');
    for (const err of [{ code: '23505' }, { code: '22P02' }, new Error('Undefined binding(s) detected'), asAppError({ code: '23505' }), busy, null, 'text']) expect(replicaFailure(err)).toBe(false);
  });
});
