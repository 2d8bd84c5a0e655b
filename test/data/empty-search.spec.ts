import { createTenant, rest, useTestApp } from '../helpers/app';

const t = useTestApp();

// An empty `search` is no search, on every list that has one.
describe('empty search', () => {
  it.each(['customers', 'jobs', 'estimates', 'invoices'])('GET /%s?search= lists everything', async (plural) => {
    const a = await createTenant(t);
    const res = await rest(t, a).get(`/${plural}?search=`);
    expect(res.status).toBe(200);
    expect(res.body.data[plural]).toEqual([]);
  });
});
