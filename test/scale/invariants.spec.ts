import { duplicates, gaps, ratio, renderTable } from '../../deploy/invariants';
import { haproxyCfg, pgbouncerIni } from '../../deploy/topology';

// The pieces of `npm run scale-test` (deploy/scale-test.ts) that need no processes: its checks of
// numbers and occurrences, its table, and the configuration it writes (HAProxy's is checked by
// haproxy itself in test/scale/haproxy.spec.ts, PgBouncer's by the PgBouncer that loads it in
// test/scale/pgbouncer.spec.ts).

it('gaps: the numbers missing from 1 to the largest', () => {
  expect(gaps([1, 2, 3])).toEqual([]);
  expect(gaps([3, 1, 2, 5])).toEqual([4]);
  expect(gaps([2, 3])).toEqual([1]);
  expect(gaps([])).toEqual([]);
});

it('duplicates: each value present more than once, once', () => {
  expect(duplicates([1, 2, 2, 3, 3, 3])).toEqual([2, 3]);
  expect(duplicates(['2026-01-01', '2026-01-08'])).toEqual([]);
});

it('the table: one row per check, failures marked', () => {
  const table = renderTable([
    { name: 'stale reads', value: '0', ok: true },
    { name: 'a | b', value: '1', ok: false, note: 'n' },
  ]);
  expect(table.split('\n')).toEqual(['| Check | Measured | | Note |', '|---|---|---|---|', '| stale reads | 0 | ✓ |  |', '| a \\| b | 1 | ✗ | n |']);
  expect(ratio(9, 10)).toBe('0.90');
  expect(ratio(1, 0)).toBe('–');
});

it('the configuration written: transaction pooling, every server checked on /ready', () => {
  const ini = pgbouncerIni({ dir: '/tmp/x', port: 6432, serverHost: '127.0.0.1', serverPort: 5432, password: 'pw' });
  expect(ini).toContain('pool_mode = transaction');
  expect(ini).toContain('* = host=127.0.0.1 port=5432 user=postgres password=pw');
  const cfg = haproxyCfg({ port: 8080, servers: [4001, 4002, 4003] });
  expect(cfg).toContain('option httpchk GET /ready');
  expect(cfg.match(/^ {2}server s\d 127\.0\.0\.1:\d+ check$/gm)).toHaveLength(3);
});
