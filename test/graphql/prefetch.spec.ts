import { getNamedType, GraphQLArgument, GraphQLObjectType, isLeafType, isNonNullType, isObjectType } from 'graphql';
import { buildGraphQLSchema } from '../../src/graphql/schema';
import { seedDemoIfEmpty } from '../../src/seed/demo';
import { gql, useTestApp } from '../helpers/app';

// A GraphQL list reads only the columns its selection needs and loads the relations it selects
// with its page (src/graphql/prefetch.ts). The single-record query reads whole records and loads
// relations one by one: for every field of every listed type, alone and all together, the list
// must answer what the single-record query answers for each of its records.

const t = useTestApp();
const schema = buildGraphQLSchema();
const query = schema.getQueryType()!.getFields();
const required = (a: GraphQLArgument) => isNonNullType(a.type) && a.defaultValue === undefined;

/** `name`, or `name { <its leaf fields> }` for an object-typed field (one level). */
function selection(type: GraphQLObjectType, name: string): string {
  const field = type.getFields()[name];
  const named = getNamedType(field.type);
  if (isLeafType(named)) return name;
  if (!isObjectType(named)) return '';
  const leaves = Object.values(named.getFields()).filter((f) => isLeafType(getNamedType(f.type)) && !f.args.some(required));
  return `${name} { ${leaves.map((f) => f.name).join(' ')} }`;
}

/** Signed photo links carry their own expiry: compare them without the signature. */
// Signed links differ between requests (expiry, and the host: supertest listens on a new port each time).
const normalize = (v: unknown) =>
  JSON.parse(JSON.stringify(v), (k, x) => ((k === 'photoUrl' || k === 'pdfUrl') && typeof x === 'string' ? x.replace(/^https?:\/\/[^/]+/, '').replace(/\?.*$/, '') : x));

// One test compares every field of every listed type (each new resource adds to it): about a minute
// alone on two cores, so it has room beyond jest's default limit when the machine is busy.
jest.setTimeout(240_000);

describe('GraphQL lists read what their selection needs', () => {
  it('answer every field of every listed type as the single-record query does, alone and together', async () => {
    const demo = await seedDemoIfEmpty(t.orm);
    const key = demo!.apiKey;
    const checked: string[] = [];
    for (const [listName, list] of Object.entries(query)) {
      const page = getNamedType(list.type);
      if (!isObjectType(page) || !page.getFields().items || list.args.some(required)) continue;
      const itemType = getNamedType(page.getFields().items.type) as GraphQLObjectType;
      const single = Object.entries(query).find(([, f]) => getNamedType(f.type) === itemType && f.args.length === 1 && f.args[0].name === 'uuid')?.[0];
      if (!single) continue;
      const fields = Object.values(itemType.getFields())
        .filter((f) => !f.args.some(required))
        .map((f) => selection(itemType, f.name))
        .filter(Boolean);
      for (const sel of [...fields, fields.join(' ')]) {
        const listed = await gql(t, key, `{ ${listName}(limit: 20) { items { uuid ${sel} } } }`);
        expect({ sel, errors: listed.errors }).toEqual({ sel, errors: undefined });
        const items = listed.data[listName].items as Array<{ uuid: string }>;
        if (!items.length) continue;
        const singles = await gql(t, key, `{ ${items.map((i, n) => `r${n}: ${single}(uuid: "${i.uuid}") { uuid ${sel} }`).join(' ')} }`);
        expect(singles.errors).toBeUndefined();
        expect({ list: listName, sel, items: normalize(items) }).toEqual({ list: listName, sel, items: normalize(items.map((_, n) => singles.data[`r${n}`])) });
        checked.push(`${listName}:${sel.split(' ')[0]}`);
      }
    }
    // Every list with records was checked, relations included.
    for (const l of ['customers', 'invoices', 'payments', 'jobs', 'estimates', 'locations', 'templates']) expect(checked.some((c) => c.startsWith(`${l}:`))).toBe(true);
    expect(checked).toEqual(expect.arrayContaining(['invoices:customer', 'invoices:payments', 'customers:jobs', 'jobs:customer', 'estimates:template']));
  });
});
