import 'reflect-metadata';
import { isObjectType } from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import { buildGraphQLSchema } from '../../src/graphql/schema';
import { fieldsOf } from '../../src/schema/fields';
import { restWriterOf } from '../../src/rest/case-map';
import { isMoneyField } from '../../src/schema/withheld';
import { Job } from '../../src/modules/job/job.entity';
import { Invoice } from '../../src/modules/invoice/invoice.entity';

// Money never reaches a technician, by the fields' declarations alone (src/schema/withheld.ts):
// every output field of kind money, on every GraphQL type and in every REST writer, reads null
// for a technician and its value for anyone else.

const technician = { access: { role: 'technician', userId: 'u' } };
const owner = { access: { role: 'owner', userId: 'u' } };

it('every money field of every GraphQL type answers null to a technician', async () => {
  const schema = buildGraphQLSchema();
  const seen: string[] = [];
  for (const objectType of getMetadataStorage().objectTypes) {
    const type = schema.getType(objectType.name);
    if (!type || !isObjectType(type)) continue;
    for (const meta of fieldsOf(objectType.target).filter(isMoneyField)) {
      const field = type.getFields()[meta.prop];
      if (!field) continue;
      expect([type.name, meta.prop, typeof field.resolve]).toEqual([type.name, meta.prop, 'function']);
      // A plain property and a getter over cents: both read through the field's resolver.
      const source = Object.create(objectType.target.prototype, { [meta.prop]: { value: 12.5 }, [`${meta.prop}Cents`]: { value: 1250 } });
      expect(await field.resolve!(source, {}, technician, {} as never)).toBeNull();
      expect(await field.resolve!(source, {}, owner, {} as never)).toBe(12.5);
      seen.push(`${type.name}.${meta.prop}`);
    }
  }
  expect(seen).toEqual(expect.arrayContaining(['Job.estimatedAmount', 'Job.actualAmount', 'Invoice.totalAmount', 'Payment.amount']));
});

it('the REST writer leaves money out for a technician, nested objects too', () => {
  const job = Object.assign(new Job(), { estimatedAmountCents: 50_000, actualAmountCents: 45_000, title: 'Boiler' });
  expect(restWriterOf(Job, true)(job)).toMatchObject({ title: 'Boiler', estimated_amount: null, actual_amount: null });
  expect(restWriterOf(Job)(job)).toMatchObject({ estimated_amount: 500, actual_amount: 450 });
  // An invoice's line items are objects of their own class, with money of their own.
  const invoice = Object.assign(new Invoice(), { totalAmountCents: 1000, subtotalCents: 1000, lineItems: [{ description: 'x', quantity: 1, unitPrice: 10, lineTotal: 10 }] });
  const written = restWriterOf(Invoice, true)(invoice) as { total_amount: unknown; line_items: Array<Record<string, unknown>> };
  expect(written.total_amount).toBeNull();
  expect(written.line_items[0]).toMatchObject({ unit_price: null, line_total: null });
});
