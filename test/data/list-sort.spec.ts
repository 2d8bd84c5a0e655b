import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sortFieldsOf, sortValuesOf } from '../../src/schema/sorting';
import { createTenant, gql, rest, useTestApp } from '../helpers/app';
import { keyOf, makeWorld, Resource, RESOURCES, World } from '../helpers/sync-resources';

// `sort` and `updated_since` on every list, both surfaces (docs/conventions.md, Lists), generated
// from one table of resources (test/helpers/sync-resources.ts).

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-sort-'));
// Photos need storage of their own.
const t = useTestApp({ DATA_DIR: dataDir, PHOTO_URL_SECRET: 'test-photo-secret-0123456789' });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const world = () => makeWorld(t);

const sql = (text: string, params: unknown[] = []) => t.orm.em.getConnection().execute(text, params);
const keyColumn = (r: Resource) => (r.table === 'users' ? 'id' : 'uuid');

async function restList(w: World, r: Resource, query: string) {
  const res = await rest(t, w.tenant).get(`${r.path(w)}?limit=100${query}`);
  return res;
}

async function gqlList(w: World, r: Resource, args: string) {
  const key = r.table === 'users' ? 'id' : 'uuid';
  const body = await gql(t, w.tenant, `{ ${r.gql}(${r.gqlArgs?.(w) ?? ''}limit: 100${args}) { items { ${key} } pagination { total } } }`);
  return body;
}

const itemsOf = (res: { body: { data: Record<string, unknown> } }) => Object.values(res.body.data).find(Array.isArray) as Array<Record<string, any>>;

/** -1, 0, 1 as the list orders two values of `field` ascending: null largest; numbers by length, then text. */
function compareValues(field: string, a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (field.endsWith('_number')) {
    const [x, y] = [String(a), String(b)];
    if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether items are in `sort` order: by the field's value, ties by the key, one direction. */
function expectSorted(items: Array<Record<string, any>>, sort: string) {
  const desc = sort.startsWith('-');
  const field = desc ? sort.slice(1) : sort;
  for (let i = 1; i < items.length; i++) {
    const [a, b] = [items[i - 1], items[i]];
    let c = compareValues(field, a[field], b[field]);
    if (c === 0) c = keyOf(a) < keyOf(b) ? -1 : 1;
    if ((desc ? -c : c) > 0) throw new Error(`${sort}: ${JSON.stringify(a[field])} (${keyOf(a)}) before ${JSON.stringify(b[field])} (${keyOf(b)})`);
  }
}

describe.each(RESOURCES.map((r) => [r.name, r] as const))('%s list', (_, r) => {
  it('sorts by every declared field, both directions, ties by the key, the same on both surfaces', async () => {
    const w = await world();
    for (let i = 0; i < 4; i++) await r.make(w, i);
    const first = await restList(w, r, '');
    const all = itemsOf(first);
    expect(all.length).toBeGreaterThanOrEqual(4);
    // The default order is -created_at.
    const byDefault = all.map(keyOf);
    expect(itemsOf(await restList(w, r, '&sort=-created_at')).map(keyOf)).toEqual(byDefault);
    for (const sort of sortValuesOf(r.entity)) {
      const res = await restList(w, r, `&sort=${encodeURIComponent(sort)}`);
      expect(res.status).toBe(200);
      // The order changes nothing else: the same total (a kept count stays a kept count).
      expect(res.body.data.pagination).toEqual(first.body.data.pagination);
      const items = itemsOf(res);
      expect([...items.map(keyOf)].sort()).toEqual([...byDefault].sort());
      expectSorted(items, sort);
      const g = await gqlList(w, r, `, sort: "${sort}"`);
      expect(g.errors).toBeUndefined();
      expect(g.data[r.gql].items.map(keyOf)).toEqual(items.map(keyOf));
    }
    // Equal timestamps everywhere: the key alone decides, in the sort's direction.
    await sql(`update ${r.table} set created_at = '2026-01-01T00:00:00Z', updated_at = '2026-01-01T00:00:00Z' where company_uuid = ?`, [w.tenant.companyUuid]);
    const keys = [...byDefault].sort();
    for (const [sort, expected] of [
      ['created_at', keys],
      ['-updated_at', [...keys].reverse()],
      ['', [...keys].reverse()],
    ] as const) {
      expect(itemsOf(await restList(w, r, sort ? `&sort=${sort}` : '')).map(keyOf)).toEqual(expected);
      const g = await gqlList(w, r, sort ? `, sort: "${sort}"` : '');
      expect(g.data[r.gql].items.map(keyOf)).toEqual(expected);
    }
  });

  it('refuses an unknown sort field on both surfaces, naming sort', async () => {
    const w = await world();
    for (const bad of ['nope', '--created_at', 'uuid', 'created_at,uuid']) {
      const res = await restList(w, r, `&sort=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['sort']);
      expect(res.body.error.details[0].message).toContain(sortFieldsOf(r.entity)[0]);
      const g = await gqlList(w, r, `, sort: "${bad}"`);
      expect(g.errors![0].extensions.code).toBe('VALIDATION_ERROR');
      expect(g.errors![0].extensions.details!.map((d) => d.field)).toEqual(['sort']);
    }
  });

  it('updated_since keeps records updated at or after it (inclusive), with their total', async () => {
    const w = await world();
    const made: string[] = [];
    for (let i = 0; i < 4; i++) made.push(await r.make(w, i));
    const key = keyColumn(r);
    await sql(`update ${r.table} set updated_at = '2026-01-01T00:00:00Z' where company_uuid = ?`, [w.tenant.companyUuid]);
    for (const [i, id] of made.entries()) await sql(`update ${r.table} set updated_at = ? where ${key} = ?`, [`2026-03-0${i + 1}T12:00:00.000Z`, id]);
    // From the second record's instant exactly, written with another offset.
    const since = '2026-03-02T07:00:00-05:00';
    const res = await restList(w, r, `&updated_since=${encodeURIComponent(since)}&sort=updated_at`);
    expect(res.status).toBe(200);
    expect(itemsOf(res).map(keyOf)).toEqual(made.slice(1));
    expect(res.body.data.pagination.total).toBe(3);
    const g = await gqlList(w, r, `, updatedSince: "${since}", sort: "updated_at"`);
    expect(g.errors).toBeUndefined();
    expect(g.data[r.gql].items.map(keyOf)).toEqual(made.slice(1));
    expect(g.data[r.gql].pagination.total).toBe(3);
    // One millisecond later leaves the boundary record out.
    const later = await restList(w, r, `&updated_since=${encodeURIComponent('2026-03-02T12:00:00.001Z')}`);
    expect(itemsOf(later).map(keyOf).sort()).toEqual(made.slice(2).sort());
    // A bad value: 400 naming the field.
    for (const bad of ['yesterday', '2026-03-02', '2026-03-02T12:00:00']) {
      const b = await restList(w, r, `&updated_since=${encodeURIComponent(bad)}`);
      expect(b.status).toBe(400);
      expect(b.body.error.details.map((d: { field: string }) => d.field)).toEqual(['updated_since']);
    }
    const gb = await gqlList(w, r, `, updatedSince: "yesterday"`);
    expect(gb.errors![0].extensions.code).toBe('VALIDATION_ERROR');
  });
});

describe('the OpenAPI document', () => {
  it("lists each list route's sort values as an enum, from the entity's declaration", async () => {
    const w = await world();
    const doc = (await rest(t, w.tenant).get('/openapi.json')).body;
    for (const r of RESOURCES) {
      const route = `/api/v1${r.path(w).replace(w.jobUuid, '{job_uuid}')}`;
      const params = doc.paths[route].get.parameters as Array<{ name: string; schema: { enum?: string[]; format?: string; anyOf?: Array<{ enum?: string[]; pattern?: string }> } }>;
      // A list with custom fields also takes `cf.<key>` (docs/custom-fields.md): the enum beside that pattern.
      const sort = params.find((p) => p.name === 'sort')!.schema;
      expect(sort.enum ?? sort.anyOf![0].enum).toEqual(sortValuesOf(r.entity));
      expect(params.find((p) => p.name === 'updated_since')!.schema.format).toBe('date-time');
    }
  });
});
