import { GraphQLObjectType } from 'graphql';
import { restFieldsOf } from '../../src/schema/fields';
import { buildGraphQLSchema } from '../../src/graphql/schema';
import { Company } from '../../src/modules/company/company.entity';
import { Customer } from '../../src/modules/customer/customer.entity';
import { Location } from '../../src/modules/location/location.entity';
import { createTenant, gql, rest, useTestApp } from '../helpers/app';

// docs/conventions.md: REST names are declared, not computed. Every field name of the spec must reach
// both surfaces, and values must round-trip between them.
const SPEC: Array<[Function, string[]]> = [
  [
    Customer,
    ['uuid', 'first_name', 'last_name', 'company_name', 'email', 'phone', 'customer_type', 'is_vip', 'physical_address1', 'physical_address2', 'physical_city', 'physical_state', 'physical_zip', 'billing_address1', 'billing_address2', 'billing_city', 'billing_state', 'billing_zip', 'primary_service_location_uuid', 'notes', 'internal_flags', 'on_my_way_notify_via', 'created_at', 'updated_at', 'deleted_at',
      // Custom data (docs/custom-fields.md).
      'custom_fields', 'external_ids', 'tags'],
  ],
  [
    Location,
    ['uuid', 'name', 'location_code', 'address1', 'address2', 'city', 'state', 'zip', 'phone', 'timezone', 'business_hours', 'default_tax_rules', 'service_types_offered', 'default_pricing_set_uuid', 'is_primary', 'is_active', 'created_at', 'updated_at', 'deleted_at', 'custom_fields', 'external_ids'],
  ],
  // settings: prevent_double_booking (docs/visits.md).
  [Company, ['uuid', 'name', 'email', 'phone', 'address_line_1', 'address_line_2', 'city', 'state', 'postal_code', 'country', 'settings']],
];

const t = useTestApp();

describe('field names between the surfaces', () => {
  it.each(SPEC.map(([cls, names]) => [cls.name, cls, names] as const))('%s declares exactly the spec fields, each one on the GraphQL type', (_n, cls, names) => {
    const declared = restFieldsOf(cls).filter((f) => f.io === 'out');
    expect(declared.map((f) => f.restName).sort()).toEqual([...names].sort());
    const type = buildGraphQLSchema().getType(cls.name) as GraphQLObjectType;
    for (const f of declared) expect(type.getFields()[f.prop]).toBeDefined();
  });

  it('round-trips every customer field from REST to GraphQL and back', async () => {
    const a = await createTenant(t);
    const loc = (await rest(t, a).post('/locations', { name: 'L', address1: '1 St', city: 'X', state: 'NY', zip: '10001' })).body.data;
    const body = {
      first_name: 'Ada', last_name: 'Lovelace', company_name: 'Engines', email: 'ada@example.com', phone: '212-555-0100', customer_type: 'Commercial', is_vip: true,
      physical_address1: 'p1', physical_address2: 'p2', physical_city: 'pc', physical_state: 'ps', physical_zip: 'pz',
      billing_address1: 'b1', billing_address2: 'b2', billing_city: 'bc', billing_state: 'bs', billing_zip: 'bz',
      primary_service_location_uuid: loc.uuid, notes: 'n', internal_flags: { a: [1, 'x'] }, on_my_way_notify_via: 'both',
    };
    const created = (await rest(t, a).post('/customers', body)).body.data;
    expect(created).toMatchObject(body);
    const metas = restFieldsOf(Customer).filter((f) => f.io === 'out');
    const query = `query($u: UUID!) { customer(uuid: $u) { ${metas.map((m) => m.prop).join(' ')} } }`;
    const viaGql = (await gql(t, a, query, { u: created.uuid })).data.customer;
    for (const m of metas) {
      const restValue = created[m.restName];
      const gqlValue = viaGql[m.prop];
      if (m.kind === 'enum' && restValue !== null) expect(m.enum![gqlValue]).toBe(restValue);
      else expect(gqlValue).toEqual(restValue);
    }
  });
});
