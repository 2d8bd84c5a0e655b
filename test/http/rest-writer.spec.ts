import request from 'supertest';
import { restFieldsOf, FieldMeta } from '../../src/schema/fields';
import { restWriter, toRest } from '../../src/rest/case-map';
import { routes } from '../../src/rest/routes';
import { leanColumn, leanList } from '../../src/data/list';
import { TENANT_FILTER } from '../../src/data/base.entity';
import { Customer } from '../../src/modules/customer/customer.entity';
import { seedDemoIfEmpty } from '../../src/seed/demo';
import { useTestApp } from '../helpers/app';

// The compiled REST writers (src/rest/case-map.ts restWriter: conversions written in place, ISO
// timestamps by src/rest/iso-time.ts) write byte for byte what the plain conversion writes: a
// loop over each class's REST fields (undefined → null, Date → toISOString, nested objects by
// their class, lists item by item), for every class the route table writes and every embedded
// summary, on made-up values of every kind and on the records of the demo company.

const t = useTestApp();

function plainValue(meta: FieldMeta, v: unknown): unknown {
  const one = (x: any): unknown => {
    if (x === undefined || x === null) return null;
    if (meta.kind === 'datetime') return x instanceof Date ? x.toISOString() : x;
    if (meta.kind === 'object') return plainRest(meta.type!(), x);
    return x;
  };
  return meta.list && Array.isArray(v) ? v.map(one) : one(v);
}

function plainRest(cls: Function, obj: any, only: readonly string[] | null = null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fields = restFieldsOf(cls).filter((m) => m.io === 'out');
  for (const name of only ?? fields.map((f) => f.restName)) {
    const meta = fields.find((f) => f.restName === name);
    out[name] = meta ? plainValue(meta, obj[meta.prop]) : null;
  }
  return out;
}

/** Every class the route table writes, and the classes nested in them. */
function writtenClasses(): Function[] {
  const seen = new Set<Function>();
  const add = (cls: Function) => {
    if (seen.has(cls)) return;
    seen.add(cls);
    for (const f of restFieldsOf(cls)) if (f.kind === 'object' && f.type) add(f.type());
  };
  for (const r of routes) {
    add(r.output);
    for (const e of r.embed ?? []) add(e.entity);
  }
  return [...seen];
}

/** Made-up values of a field, variant `i`: missing, null, and values of its kind (and of others). */
function madeUp(meta: FieldMeta, i: number, depth: number): unknown {
  const scalar = (k: number): unknown => {
    switch (k % 7) {
      case 0: return undefined;
      case 1: return null;
      case 2: return new Date(1_700_000_000_123 + k * 86_399_999);
      case 3: return `text ${k} "quoted" \u2028`;
      case 4: return k * 1.25;
      case 5: return k % 2 === 0;
      default: return meta.kind === 'object' && depth < 2 ? madeObject(meta.type!(), k, depth + 1) : '2024-02-29T10:00:00Z';
    }
  };
  if (meta.list && i % 3 === 2) return [scalar(i), scalar(i + 2), scalar(i + 6)];
  return scalar(i);
}

function madeObject(cls: Function, i: number, depth: number): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  restFieldsOf(cls).forEach((f, j) => {
    const v = madeUp(f, i + j, depth);
    if (v !== undefined) o[f.prop] = v;
  });
  return o;
}

test('every written class and summary: the same JSON as the plain conversion, on made-up values', () => {
  const classes = writtenClasses();
  expect(classes.length).toBeGreaterThan(10);
  for (const cls of classes) {
    for (let i = 0; i < 14; i++) {
      const obj = madeObject(cls, i, 0);
      expect(JSON.stringify(toRest(cls, obj))).toBe(JSON.stringify(plainRest(cls, obj)));
    }
  }
  for (const e of routes.flatMap((r) => r.embed ?? [])) {
    const write = restWriter(e.entity, e.fields);
    for (let i = 0; i < 14; i++) {
      const obj = madeObject(e.entity, i, 0);
      expect(JSON.stringify(write(obj))).toBe(JSON.stringify(plainRest(e.entity, obj, e.fields)));
    }
  }
});

test("every listed entity's records: the same JSON as the plain conversion, and the customer list's body byte for byte", async () => {
  const demo = (await seedDemoIfEmpty(t.orm))!;
  const em = t.orm.em.fork();
  em.setFilterParams(TENANT_FILTER, { companyId: demo.company.uuid });
  const listed = routes.filter((r) => r.method === 'GET' && r.plural && !r.path.includes(':') && em.getMetadata().find(r.output.name));
  expect(listed.length).toBeGreaterThan(5);
  let records = 0;
  for (const r of listed) {
    const page = await leanList<any>(em, r.output, demo.company.uuid, `e.${leanColumn(em, r.output, 'company')} = ?`, [demo.company.uuid], 100, 0);
    for (const item of page.items) {
      expect(JSON.stringify(toRest(r.output, item))).toBe(JSON.stringify(plainRest(r.output, item)));
      for (const e of r.embed ?? []) expect(JSON.stringify(restWriter(e.entity, e.fields)(item))).toBe(JSON.stringify(plainRest(e.entity, item, e.fields)));
      records++;
    }
  }
  expect(records).toBeGreaterThan(10);
  const res = await request(t.app).get('/api/v1/customers?limit=100').set('Authorization', `Bearer ${demo.apiKey}`).expect(200);
  const page = await leanList<Customer>(em, Customer, demo.company.uuid, `e.${leanColumn(em, Customer, 'company')} = ? and e.${leanColumn(em, Customer, 'deletedAt')} is null`, [demo.company.uuid], 100, 0);
  const total = page.total;
  expect(res.text).toBe(JSON.stringify({ success: true, data: { customers: page.items.map((c) => plainRest(Customer, c)), pagination: { page: 1, limit: 100, total, total_pages: Math.ceil(total / 100) } } }));
});
