import { useTestApp, createTenant, rest } from '../helpers/app';
import { watchStatements } from '../helpers/statements';
import { makeInvoice, makeJob, pay } from '../helpers/billing';

// A REST list route passes its embedded summaries to the service as an argument
// (service.list(ctx, args, include), src/rest/router.ts): they come with the page, in the list's one
// statement, whatever the page size. Without it each summary would be a batch of its own.

const t = useTestApp();

it('GET /invoices, /payments and /jobs load their embedded summaries with the page: the same statements for 1 row or many', async () => {
  const a = await createTenant(t);
  const jobs = [];
  for (let i = 0; i < 3; i++) jobs.push(await makeJob(t, a));
  for (let i = 0; i < 12; i++) await pay(t, a, (await makeInvoice(t, a, { job_uuid: jobs[i % 3].uuid })).uuid, 5);
  const statements = watchStatements();
  const measure = async (path: string, key: string, embedded: string, limit: number) => {
    statements.reset();
    const res = await rest(t, a).get(`${path}?limit=${limit}`);
    expect(res.status).toBe(200);
    expect(res.body.data[key]).toHaveLength(limit);
    expect(res.body.data[key].every((r: Record<string, unknown>) => r[embedded] && typeof r[embedded] === 'object')).toBe(true);
    return statements.count;
  };
  try {
    for (const [path, key, embedded, many] of [['/invoices', 'invoices', 'customer', 12], ['/payments', 'payments', 'invoice', 12], ['/jobs', 'jobs', 'customer', 3]] as const) {
      const one = await measure(path, key, embedded, 1);
      const twelve = await measure(path, key, embedded, many);
      // The page with its count and summaries, in one statement (the key is kept by the key cache
      // since the tenant's first request: src/auth/key-cache.ts).
      expect([path, one, twelve]).toEqual([path, 1, 1]);
    }
  } finally {
    statements.stop();
  }
});
