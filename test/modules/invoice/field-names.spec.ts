import { GraphQLObjectType } from 'graphql';
import { restFieldsOf } from '../../../src/schema/fields';
import { buildGraphQLSchema } from '../../../src/graphql/schema';
import { Invoice } from '../../../src/modules/invoice/invoice.entity';
import { Payment } from '../../../src/modules/payment/payment.entity';
import { createTenant, gql, rest, useTestApp } from '../../helpers/app';
import { makeInvoice, pay } from '../../helpers/billing';

// docs/conventions.md for invoices and payments: exactly the spec's fields (payments' refunded_amount from online payments, docs/payments.md), on both surfaces, equal values.
const SPEC: Array<[Function, string, string[]]> = [
  [
    Invoice,
    'invoice',
    ['uuid', 'invoice_number', 'customer_uuid', 'job_uuid', 'estimate_uuid', 'location_uuid', 'invoice_type', 'progress_percentage', 'issue_date', 'due_date', 'subtotal', 'tax_amount', 'discount_amount', 'total_amount', 'paid_amount', 'balance_amount', 'line_items', 'notes', 'terms', 'internal_notes', 'status', 'recurring_invoice_uuid', 'created_at', 'updated_at', 'deleted_at', 'custom_fields', 'external_ids'],
  ],
  [
    Payment,
    'payment',
    ['uuid', 'payment_number', 'invoice_uuid', 'customer_uuid', 'payment_type', 'payment_method', 'amount', 'processing_fee', 'refunded_amount', 'net_amount', 'payment_date', 'transaction_id', 'reference_number', 'authorization_code', 'payment_details', 'notes', 'status', 'processed_at', 'created_by_user_id', 'created_at', 'updated_at', 'deleted_at', 'external_ids'],
  ],
];

const t = useTestApp();

describe('invoice and payment field names between the surfaces', () => {
  it.each(SPEC.map(([cls, , names]) => [cls.name, cls, names] as const))('%s declares exactly the spec fields, each on the GraphQL type', (_n, cls, names) => {
    const declared = restFieldsOf(cls).filter((f) => f.io === 'out');
    expect(declared.map((f) => f.restName).sort()).toEqual([...names].sort());
    const type = buildGraphQLSchema().getType(cls.name) as GraphQLObjectType;
    for (const f of declared) expect(type.getFields()[f.prop]).toBeDefined();
  });

  it('round-trips every field from REST to GraphQL', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a, { notes: 'n', terms: 't', internal_notes: 'i', invoice_type: 'Partial', discount_amount: 1.5 });
    const p = (await pay(t, a, inv.uuid, 12.34, { payment_method: 'visa', processing_fee: 0.34, transaction_id: 'tx', reference_number: 'r', authorization_code: 'ac', payment_details: { k: [1] }, notes: 'pn' })).body.data;
    for (const [cls, single, , path] of SPEC.map(([c, s, n], i) => [c, s, n, i === 0 ? `/invoices/${inv.uuid}` : `/payments/${p.uuid}`] as const)) {
      const record = (await rest(t, a).get(path)).body.data;
      const metas = restFieldsOf(cls).filter((f) => f.io === 'out');
      const sub = (m: (typeof metas)[number]) => (m.kind === 'object' ? `${m.prop} { description quantity unitPrice lineTotal taxRate taxAmount }` : m.prop);
      const viaGql = (await gql(t, a, `query($u: UUID!) { ${single}(uuid: $u) { ${metas.map(sub).join(' ')} } }`, { u: record.uuid })).data[single];
      for (const m of metas) {
        const restValue = record[m.restName];
        const gqlValue = viaGql[m.prop];
        if (m.kind === 'enum' && restValue !== null) expect(m.enum![gqlValue]).toBe(restValue);
        else if (m.kind === 'object') expect(gqlValue).toEqual(restValue.map((l: Record<string, unknown>) => ({ description: l.description, quantity: l.quantity, unitPrice: l.unit_price, lineTotal: l.line_total, taxRate: l.tax_rate, taxAmount: l.tax_amount })));
        else expect(gqlValue).toEqual(restValue);
      }
    }
  });
});
