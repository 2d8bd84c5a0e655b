import { getNamedType, GraphQLObjectType, isObjectType } from 'graphql';
import { fieldsOf } from '../../src/schema/fields';
import { buildGraphQLSchema } from '../../src/graphql/schema';
import { seedDemoIfEmpty } from '../../src/seed/demo';
import { gql, useTestApp } from '../helpers/app';

// A GraphQL list reads of its records only the columns its computed fields declare they read
// (`@ApiField(…, { reads: [...] })`, src/graphql/prefetch.ts). Each such field, selected alone on a
// list, must answer what the single-record query (whole records) answers; the fixtures include the
// cases that need every declared read (an overdue invoice needs its company's today, an expired
// estimate its expires_at).

const t = useTestApp();
const schema = buildGraphQLSchema();

it('every declared read names a property of the entity or another field that declares its reads', () => {
  const metadata = t.orm.em.getMetadata();
  let declared = 0;
  for (const meta of Object.values(metadata.getAll())) {
    if (!meta.class) continue;
    const fields = fieldsOf(meta.class);
    for (const f of fields.filter((x) => x.reads)) {
      declared++;
      for (const read of f.reads!) {
        const known = !!(meta.properties as Record<string, unknown>)[read] || fields.some((g) => g.prop === read && g.reads);
        expect([meta.className, f.prop, read, known]).toEqual([meta.className, f.prop, read, true]);
      }
    }
  }
  expect(declared).toBeGreaterThan(30);
});

it('each computed field alone on a list answers as the single-record query, overdue and expired records included', async () => {
  const demo = await seedDemoIfEmpty(t.orm);
  const key = demo!.apiKey;
  const conn = t.orm.em.getConnection();
  await conn.execute(`update invoices set issue_date = '2020-01-01', due_date = '2020-01-31' where uuid = (select uuid from invoices where status = 'Pending' and balance_amount > 0 order by created_at desc limit 1)`);
  await conn.execute(`update estimates set expires_at = now() - interval '1 day' where uuid = (select uuid from estimates where status = 'Pending' order by created_at desc limit 1)`);
  const query = schema.getQueryType()!.getFields();
  const seen = new Set<string>();
  for (const [list, single, entity] of [['invoices', 'invoice', 'Invoice'], ['estimates', 'estimate', 'Estimate'], ['payments', 'payment', 'Payment'], ['jobs', 'job', 'Job'], ['templates', 'template', 'Template'], ['customers', 'customer', 'Customer']]) {
    const type = getNamedType(query[single].type) as GraphQLObjectType;
    const meta = t.orm.em.getMetadata().find(entity)!;
    const computed = fieldsOf(meta.class).filter((f) => f.reads && f.io === 'out');
    expect(computed.length).toBeGreaterThan(0);
    for (const f of computed) {
      const name = Object.values(type.getFields()).find((g) => g.name === f.prop || g.name === f.prop.replace(/_(\w)/g, (_, c) => c.toUpperCase()))?.name ?? f.prop;
      const named = getNamedType(type.getFields()[name]?.type);
      const sel = isObjectType(named) ? `${name} { ${Object.keys(named.getFields()).join(' ')} }` : name;
      const listed = await gql(t, key, `{ ${list}(limit: 100) { items { uuid ${sel} } } }`);
      expect({ list, sel, errors: listed.errors }).toEqual({ list, sel, errors: undefined });
      const items = listed.data[list].items as Array<Record<string, unknown>>;
      expect(items.length).toBeGreaterThan(0);
      const singles = await gql(t, key, `{ ${items.map((i, n) => `r${n}: ${single}(uuid: "${i.uuid}") { uuid ${sel} }`).join(' ')} }`);
      expect(singles.errors).toBeUndefined();
      expect({ list, sel, items }).toEqual({ list, sel, items: items.map((_, n) => singles.data[`r${n}`]) });
      if (name === 'status') for (const i of items) seen.add(`${single}:${i.status}`);
    }
  }
  expect([...seen]).toEqual(expect.arrayContaining(['invoice:OVERDUE', 'estimate:EXPIRED']));
});
