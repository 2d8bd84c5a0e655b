import { useDbClient } from '../../helpers/app';
import { expiredSql, isExpired, statusFilterSql } from '../../../src/modules/estimate/estimate.rules';

// Estimate expiry (src/modules/estimate/estimate.rules.ts) in its two forms over the same
// fixtures: the SQL form run in PostgreSQL.

const db = useDbClient();

const now = new Date('2026-03-08T15:00:00.000Z');
const fixtures = ['Pending', 'Accepted', 'Declined', 'Expired'].flatMap((status) =>
  [null, '2026-03-08T14:59:59.999Z', '2026-03-08T15:00:00.000Z', '2026-03-08T15:00:00.001Z', '2027-01-01T00:00:00.000Z'].map((expires) => ({ status, expires })),
);
const STATUSES = ['Pending', 'Accepted', 'Declined', 'Expired'];
const readStatus = (f: { status: string; expires: string | null }) => (isExpired(f.status, f.expires ? new Date(f.expires) : null, now) ? 'Expired' : f.status);

it('the TS form and the SQL form judge every fixture alike, and each status filter lists exactly the estimates reading as it', async () => {
  const columns = [`${expiredSql('e', '$2::timestamptz')} as expired`, ...STATUSES.map((s, i) => `${statusFilterSql(s, 'e', '$2::timestamptz')} as f${i}`)];
  const { rows } = await db.query(
    `select ${columns.join(', ')} from json_to_recordset($1::json) as e(i int, status text, expires_at timestamptz(3)) order by e.i`,
    [JSON.stringify(fixtures.map((f, i) => ({ i, status: f.status, expires_at: f.expires }))), now.toISOString()],
  );
  expect(rows.map((r) => r.expired)).toEqual(fixtures.map((f) => isExpired(f.status, f.expires ? new Date(f.expires) : null, now)));
  for (const [i, s] of STATUSES.entries()) expect([s, rows.map((r) => r[`f${i}`])]).toEqual([s, fixtures.map((f) => readStatus(f) === s)]);
  expect(rows.filter((r) => r.expired)).toHaveLength(2); // Pending, expiring at or before now
});
