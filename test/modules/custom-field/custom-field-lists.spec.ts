import { createTenant, gql, rest, Tenant, useTestApp } from '../../helpers/app';

// Lists filtered and sorted by custom fields, and by tags (docs/custom-fields.md): every answer
// equals filtering (or sorting) the full list in JavaScript.

const t = useTestApp();

const DEFS = [
  { key: 'code', type: 'text' },
  { key: 'tons', type: 'number' },
  { key: 'deposit', type: 'money' },
  { key: 'dog', type: 'boolean' },
  { key: 'until', type: 'date' },
  { key: 'unit', type: 'select', options: ['heat', 'furnace', 'boiler'] },
  { key: 'trades', type: 'multi_select', options: ['hvac', 'plumbing', 'electric'] },
  { key: 'phone2', type: 'phone' },
];

type Row = { uuid: string; custom_fields: Record<string, any>; tags: string[] };

async function seed(a: Tenant): Promise<Row[]> {
  for (const d of DEFS) expect((await rest(t, a).post('/custom_fields', { resource: 'customer', label: d.key, ...d })).status).toBe(200);
  for (let i = 0; i < 24; i++) {
    const cf: Record<string, unknown> = {};
    // Some values left out: a filter never matches a missing value; a sort puts it last.
    if (i % 5) cf.code = `c${i % 4}`;
    if (i % 6) cf.tons = (i % 7) * 1.5;
    if (i % 4) cf.deposit = (i % 3) * 10.25;
    if (i % 3) cf.dog = i % 2 === 0;
    if (i % 7) cf.until = `2027-0${1 + (i % 9)}-1${i % 10}`;
    if (i % 8) cf.unit = ['heat', 'furnace', 'boiler'][i % 3];
    if (i % 2) cf.trades = [['hvac'], ['plumbing', 'electric'], ['hvac', 'electric']][i % 3];
    if (i % 3 === 0) cf.phone2 = `217555${String(1000 + (i % 4)).padStart(4, '0')}`;
    const tags = [['Gold'], ['gold', 'north'], [], ['South']][i % 4];
    const r = await rest(t, a).post('/customers', { first_name: `F${i}`, last_name: `L${i}`, custom_fields: cf, tags });
    expect(r.status).toBe(200);
  }
  return (await rest(t, a).get('/customers?limit=100')).body.data.customers;
}

const uuids = (rows: Row[]) => rows.map((r) => r.uuid).sort();

describe('lists by custom fields', () => {
  it('filter by each filterable type equals filtering the full list in JavaScript, on REST and GraphQL', async () => {
    const a = await createTenant(t);
    const all = await seed(a);
    const cases: Array<[string, (r: Row) => boolean, object | null]> = [
      ['cf.code=c1', (r) => r.custom_fields.code === 'c1', { key: 'code', values: ['c1'] }],
      ['cf.unit=heat,boiler', (r) => ['heat', 'boiler'].includes(r.custom_fields.unit), { key: 'unit', values: ['heat', 'boiler'] }],
      ['cf.trades=electric', (r) => (r.custom_fields.trades ?? []).includes('electric'), { key: 'trades', values: ['electric'] }],
      ['cf.dog=true', (r) => r.custom_fields.dog === true, { key: 'dog', values: ['true'] }],
      ['cf.dog=0', (r) => r.custom_fields.dog === false, { key: 'dog', values: ['0'] }],
      ['cf.tons=4.5', (r) => r.custom_fields.tons === 4.5, { key: 'tons', values: ['4.5'] }],
      ['cf.tons[gte]=3&cf.tons[lt]=7.5', (r) => r.custom_fields.tons >= 3 && r.custom_fields.tons < 7.5, null],
      ['cf.deposit[gt]=10.25', (r) => r.custom_fields.deposit > 10.25, { key: 'deposit', gt: '10.25' }],
      ['cf.until[lte]=2027-04-30', (r) => r.custom_fields.until !== undefined && r.custom_fields.until <= '2027-04-30', { key: 'until', lte: '2027-04-30' }],
      ['cf.phone2=(217) 555-1002', (r) => r.custom_fields.phone2 === '217-555-1002', { key: 'phone2', values: ['(217) 555-1002'] }],
      ['tags=GOLD,south', (r) => r.tags.some((x) => ['gold', 'south'].includes(x.toLowerCase())), null],
      ['cf.unit=heat&tags=north', (r) => r.custom_fields.unit === 'heat' && r.tags.some((x) => x.toLowerCase() === 'north'), null],
    ];
    for (const [query, keep, filter] of cases) {
      const expected = uuids(all.filter(keep));
      expect(expected.length).toBeGreaterThan(0);
      const res = await rest(t, a).get(`/customers?limit=100&${query.replace(/ /g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29')}`);
      expect([query, res.status]).toEqual([query, 200]);
      expect([query, uuids(res.body.data.customers)]).toEqual([query, expected]);
      expect(res.body.data.pagination.total).toBe(expected.length);
      if (filter) {
        const g = await gql(t, a, 'query($f: [CustomFieldFilter!]) { customers(limit: 100, customFields: $f) { items { uuid } pagination { total } } }', { f: [filter] });
        expect([query, uuids(g.data.customers.items)]).toEqual([query, expected]);
      }
    }
  });

  it('sort by each sortable type equals sorting the full list in JavaScript (missing values last ascending, first descending)', async () => {
    const a = await createTenant(t);
    const all = await seed(a);
    for (const key of ['code', 'tons', 'deposit', 'dog', 'until', 'unit', 'phone2']) {
      for (const desc of [false, true]) {
        const cmp = (x: Row, y: Row) => {
          const [a1, b1] = [x.custom_fields[key], y.custom_fields[key]];
          const c = a1 === b1 ? 0 : a1 === undefined ? 1 : b1 === undefined ? -1 : a1 < b1 ? -1 : 1;
          return c !== 0 ? c : x.uuid < y.uuid ? -1 : 1;
        };
        const expected = [...all].sort((x, y) => (desc ? -cmp(x, y) : cmp(x, y))).map((r) => r.uuid);
        const sort = `${desc ? '-' : ''}cf.${key}`;
        const res = await rest(t, a).get(`/customers?limit=100&sort=${sort}`);
        expect([sort, res.body.data.customers.map((r: Row) => r.uuid)]).toEqual([sort, expected]);
        const g = await gql(t, a, `{ customers(limit: 100, sort: "${sort}") { items { uuid } } }`);
        expect([sort, g.data.customers.items.map((r: Row) => r.uuid)]).toEqual([sort, expected]);
      }
    }
  });

  it('an unknown key, a bound on an unranged type or a bad value is a 400 naming it; multi_select does not sort', async () => {
    const a = await createTenant(t);
    for (const d of DEFS) await rest(t, a).post('/custom_fields', { resource: 'customer', label: d.key, ...d });
    const field = async (q: string) => (await rest(t, a).get(`/customers?${q}`)).body.error.details[0].field;
    expect(await field('cf.nope=1')).toBe('cf.nope');
    expect(await field('cf.code[gte]=a')).toBe('cf.code');
    expect(await field('cf.tons=abc')).toBe('cf.tons');
    expect(await field('cf.unit=castle')).toBe('cf.unit');
    expect(await field('sort=cf.trades')).toBe('sort');
    const g = await gql(t, a, '{ customers(customFields: [{ key: "nope", values: ["1"] }]) { items { uuid } } }');
    expect(g.errors?.[0].extensions.details?.[0].field).toBe('customFields.nope');
    // Another resource's lists take their own fields.
    expect(await (async () => (await rest(t, a).get('/jobs?cf.code=c1')).body.error.details[0].field)()).toBe('cf.code');
  });

  it('tags: trimmed, kept once whatever their case, at most 20 of 1–40 characters; jobs filter by tags too', async () => {
    const a = await createTenant(t);
    const c = await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B', tags: [' VIP ', 'vip', 'North'] });
    expect(c.body.data.tags).toEqual(['VIP', 'North']);
    expect((await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) })).body.error.details[0].field).toBe('tags');
    expect((await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B', tags: ['x'.repeat(41)] })).status).toBe(400);
    const j1 = (await rest(t, a).post('/jobs', { customer_uuid: c.body.data.uuid, title: 'One', tags: ['Urgent'] })).body.data;
    await rest(t, a).post('/jobs', { customer_uuid: c.body.data.uuid, title: 'Two', tags: ['later'] });
    const listed = await rest(t, a).get('/jobs?tags=urgent');
    expect(listed.body.data.jobs.map((j: { uuid: string }) => j.uuid)).toEqual([j1.uuid]);
    const g = await gql(t, a, '{ jobs(tags: ["URGENT"]) { items { uuid tags } } }');
    expect(g.data.jobs.items).toEqual([{ uuid: j1.uuid, tags: ['Urgent'] }]);
    const replaced = await rest(t, a).put(`/customers/${c.body.data.uuid}`, { tags: ['South'] });
    expect(replaced.body.data.tags).toEqual(['South']);
  });
});
