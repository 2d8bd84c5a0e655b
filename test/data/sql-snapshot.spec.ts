import fs from 'node:fs';
import path from 'node:path';
import { QUERIES_DIR, sqlFiles } from '../../src/data/emit-sql';
import { normalizeSql, parseSqlFile } from '../../src/data/queries';
import { createTenant, rest, useTestApp } from '../helpers/app';
import { userWithKey } from '../helpers/technicians';
import { UserRole } from '../../src/modules/user/user.entity';

// Every statement the read model builds is committed under src/data/queries/ (npm run sql), and
// the statements a list request runs are among them.

const t = useTestApp();

function committed(): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of fs.readdirSync(QUERIES_DIR)) if (f.endsWith('.sql')) out.set(f, fs.readFileSync(path.join(QUERIES_DIR, f), 'utf8'));
  return out;
}

describe('the committed SQL of the read model (src/data/queries/)', () => {
  it('is what the read model builds (run `npm run sql` when this fails)', async () => {
    const built = await sqlFiles();
    const files = committed();
    expect([...files.keys()].sort()).toEqual([...built.keys()].sort());
    for (const [name, text] of built) expect(`${name}:\n${files.get(name)}`).toBe(`${name}:\n${text}`);
  });

  it('holds the statements list requests run', async () => {
    const a = await createTenant(t);
    const all = new Set([...committed().values()].flatMap((text) => parseSqlFile(text).map((s) => normalizeSql(s.sql))));
    const conn = t.orm.em.getConnection() as any;
    const spy = jest.spyOn(conn, 'executeQuery');
    try {
      for (const route of ['customers', 'jobs', 'estimates', 'invoices', 'payments', 'templates', 'users', 'visits']) {
        const res = await rest(t, a).get(`/${route}?limit=5`);
        expect(res.status).toBe(200);
      }
      // The calendar of a user's week (the visits' committed filter, src/modules/visit/visit.calendar.ts).
      const week = await rest(t, a).get(`/visits?limit=5&user_id=${a.userId}&from=2026-06-01T00:00:00Z&to=2026-06-08T00:00:00Z`);
      expect(week.status).toBe(200);
      const lists = spy.mock.calls.map((c) => String(c[0])).filter((sql) => sql.includes('json_agg') && /^select (\(select|case when "p")/.test(sql));
      expect(lists.length).toBe(9);
      expect(lists.map(normalizeSql).filter((sql) => !all.has(sql))).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });

  it("holds the statements a technician's list requests run (held to their reach)", async () => {
    const a = await createTenant(t);
    const tech = await userWithKey(t, a, UserRole.TECHNICIAN);
    const all = new Set([...committed().values()].flatMap((text) => parseSqlFile(text).map((s) => normalizeSql(s.sql))));
    const conn = t.orm.em.getConnection() as any;
    const spy = jest.spyOn(conn, 'executeQuery');
    try {
      for (const route of ['customers', 'jobs', 'locations', 'visits', `visits?user_id=${tech.userId}&from=2026-06-01T00:00:00Z&to=2026-06-08T00:00:00Z`]) {
        const res = await rest(t, tech).get(`/${route}${route.includes('?') ? '&' : '?'}limit=5`);
        expect(res.status).toBe(200);
      }
      const lists = spy.mock.calls.map((c) => String(c[0])).filter((sql) => sql.includes('json_agg') && /^select (\(select|case when "p")/.test(sql));
      expect(lists.length).toBe(5);
      // Each carries the user: a crew's (visits), or the kept reach of jobs (job_reach, joined or as a set).
      expect(lists.filter((sql) => !/"(rva|rj|r)"\."user_id" = \?/.test(sql))).toEqual([]);
      expect(lists.filter((sql) => sql.includes('from "job_reach" as "r" join "jobs" as e')).length).toBe(1);
      expect(lists.map(normalizeSql).filter((sql) => !all.has(sql))).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });
});
