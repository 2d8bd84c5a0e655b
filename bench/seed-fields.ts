import { Client } from 'pg';
import { initOrm } from '../src/db/orm';
import { createCompany } from '../src/modules/company/company.admin';
import type { Tenant } from './setup';

// The custom-field rows of `npm run bench` (docs/custom-fields.md, "Benchmark"): a company whose
// customers are the big company's, copied row for row, each with a value of ten custom fields of
// every type, so that its plain page compares with the big company's (the same list before custom
// fields existed) and its filtered page with its own plain one.

/** The ten definitions, one of each type. */
export const FIELD_DEFINITIONS = [
  { key: 'unit', type: 'select', options: ['heat pump', 'furnace', 'boiler'] },
  { key: 'gate_code', type: 'text' },
  { key: 'tonnage', type: 'number' },
  { key: 'deposit', type: 'money' },
  { key: 'has_dog', type: 'boolean' },
  { key: 'warranty_until', type: 'date' },
  { key: 'trades', type: 'multi_select', options: ['hvac', 'plumbing', 'electric'] },
  { key: 'portal', type: 'url' },
  { key: 'billing_email', type: 'email' },
  { key: 'alt_phone', type: 'phone' },
];

/** A value of each field, as the API stores them (a third of the customers have `unit` = furnace). */
export const fieldValues = (i: number) => ({
  unit: ['heat pump', 'furnace', 'boiler'][i % 3],
  gate_code: `G${i % 9000}`,
  tonnage: (i % 7) + 0.5,
  deposit: (i % 50) * 10,
  has_dog: i % 2 === 0,
  warranty_until: `2027-${String(1 + (i % 12)).padStart(2, '0')}-15`,
  trades: [['hvac'], ['plumbing', 'electric']][i % 2],
  portal: `https://portal.example/c/${i}`,
  billing_email: `ops${i}@example.com`,
  alt_phone: `(217) 555-${String(i % 10000).padStart(4, '0')}`,
});

/** Makes the company, its ten definitions (through the API at `base`) and the copies of the big company's customers. */
export async function seedFields(url: string, base: string, big: Tenant): Promise<Tenant> {
  const orm = await initOrm(url, 2);
  let tenant: Tenant;
  try {
    const name = 'Bench Custom Fields';
    const { company, user, apiKey } = await createCompany(orm.em.fork(), { name, email: 'office@fields.bench.example' });
    tenant = { name, companyUuid: company.uuid, userId: user.id, key: apiKey };
  } finally {
    await orm.close(true);
  }
  for (const d of FIELD_DEFINITIONS) {
    const res = await fetch(`${base}/api/v1/custom_fields`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ resource: 'customer', label: d.key, ...d }),
    });
    if (res.status !== 200) throw new Error(`custom field ${d.key}: ${res.status} ${await res.text()}`);
  }
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    // Every stored column but the keys, the custom fields and what PostgreSQL computes.
    const columns = (
      await db.query<{ c: string }>(
        `select quote_ident(column_name) as c from information_schema.columns
         where table_schema = 'public' and table_name = 'customers' and is_generated = 'NEVER' and column_name not in ('uuid', 'company_uuid', 'custom_fields')
         order by ordinal_position`,
      )
    ).rows.map((r) => r.c);
    const sample = JSON.stringify(Array.from({ length: 6 }, (_, i) => fieldValues(i)));
    await db.query(
      `insert into customers (uuid, company_uuid, custom_fields, ${columns.join(', ')})
       select gen_random_uuid(), $2, $3::jsonb -> (row_number() over (order by created_at, uuid) % 6)::int, ${columns.join(', ')}
       from customers where company_uuid = $1`,
      [big.companyUuid, tenant.companyUuid, sample],
    );
    await db.query('vacuum analyze customers');
  } finally {
    await db.end();
  }
  return tenant;
}
