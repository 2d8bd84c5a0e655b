import pg from 'pg';

/**
 * The statements sent to PostgreSQL from here on, as the driver sends them (pg's Client.query):
 * those run through knex and those run on a pooled connection directly (src/data/orm-adapter.ts
 * runPooled), with `$n` placeholders. Left out: the key cache's own connection (its fences are
 * not a request's statements) and the version check knex runs on a new pooled connection.
 */
export function watchStatements() {
  const seen: string[] = [];
  const send = pg.Client.prototype.query;
  const spy = jest.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string } | undefined)?.text ?? '');
    const app = (this as unknown as { connectionParameters?: { application_name?: string } }).connectionParameters?.application_name;
    if (app !== 'fsc-key-cache' && !/^select version\(\)/.test(text)) seen.push(text);
    return (send as (...a: unknown[]) => unknown).apply(this, args) as never;
  });
  return {
    seen,
    get count() {
      return seen.length;
    },
    reset: () => void (seen.length = 0),
    stop: () => spy.mockRestore(),
  };
}
