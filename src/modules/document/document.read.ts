import type { EntityManager } from '@mikro-orm/postgresql';
import { aliasedColumns, mappedColumns, perMetadata, recordOf } from '../../data/entity-sql';
import { leanColumnMapper, leanRecord } from '../../data/record';
import { runStatement } from '../../data/prepared';
import { Company } from '../company/company.entity';
import { CustomFieldDefinition } from '../custom-field/custom-field.entity';
import { Customer } from '../customer/customer.entity';
import { Invoice } from '../invoice/invoice.entity';
import { invoiceTodaySql } from '../invoice/invoice.rules';
import { Job } from '../job/job.entity';
import { Location } from '../location/location.entity';
import { Payment, PaymentStatus } from '../payment/payment.entity';
import { printedResources } from './document.fields';

// The records of an invoice's document view in one statement (docs/documents.md, "Rendering
// speed"): the invoice with its company's today (its status reads it), its company, customer and
// location, and its completed payments in order, as lean read-only instances (src/data/record.ts)
// instead of five ORM reads that make managed entities; and, for its custom fields, its job's
// custom_fields and whether the company prints any custom field on invoices (so that a company
// that prints none reads no definition: docs/documents.md, "Custom fields on documents"). The
// statements are those of the ORM path in document.view.ts (the same rows, filters off as there);
// test/modules/document/document-view.spec.ts checks that both give the same view.

const invoiceQuery = perMetadata((metadata) => {
  const table = (cls: Function) => `"${metadata.get(cls.name).tableName}"`;
  const invoiceColumns = mappedColumns(metadata, Invoice);
  const companyColumns = mappedColumns(metadata, Company);
  const customerColumns = mappedColumns(metadata, Customer);
  const locationColumns = mappedColumns(metadata, Location);
  // em.find(Payment, { invoice, company, deletedAt: null, status: COMPLETED }, { orderBy: { paymentDate: 'asc', createdAt: 'asc' } })
  const payments =
    `coalesce((select json_agg(to_jsonb("p") order by "p"."payment_date" asc, "p"."created_at" asc) from ${table(Payment)} as "p" ` +
    `where "p"."invoice_uuid" = "i"."uuid" and "p"."company_uuid" = "i"."company_uuid" and "p"."deleted_at" is null and "p"."status" = '${PaymentStatus.COMPLETED}'), '[]')`;
  // The resources of the definitions document.fields.ts reads (shownDefinitions), and its condition.
  const printed = Object.values(printedResources('invoice')).map((r) => `'${r}'`).join(', ');
  const showsFields =
    `exists (select 1 from ${table(CustomFieldDefinition)} as "d" where "d"."company_uuid" = "i"."company_uuid" and "d"."resource" in (${printed}) ` +
    `and "d"."show_on_documents" and "d"."deleted_at" is null)`;
  // em.findOne(Job, { uuid, company }, { filters: false })'s custom_fields (a deleted job's too, as the customer's and location's).
  const jobFields = `(select "j"."custom_fields" from ${table(Job)} as "j" where "j"."uuid" = "i"."job_uuid" and "j"."company_uuid" = "i"."company_uuid")`;
  const select = [
    ...aliasedColumns('i', invoiceColumns),
    `${invoiceTodaySql('"i"')}::text as "company_today"`,
    ...aliasedColumns('co', companyColumns),
    ...aliasedColumns('cu', customerColumns),
    ...aliasedColumns('l', locationColumns),
    `${payments} as "payments"`,
    `${showsFields} as "shows_fields"`,
    `${jobFields} as "job_custom_fields"`,
  ];
  const sql =
    `select ${select.join(', ')} from ${table(Invoice)} as "i" ` +
    `left join ${table(Company)} as "co" on "co"."uuid" = "i"."company_uuid" ` +
    `left join ${table(Customer)} as "cu" on "cu"."uuid" = "i"."customer_uuid" and "cu"."company_uuid" = "i"."company_uuid" ` +
    `left join ${table(Location)} as "l" on "l"."uuid" = "i"."location_uuid" and "l"."company_uuid" = "i"."company_uuid" ` +
    `where "i"."uuid" = ? and "i"."company_uuid" = ? and "i"."deleted_at" is null`;
  return { sql, invoiceColumns, companyColumns, customerColumns, locationColumns };
});

export interface InvoiceRecords {
  invoice: Invoice;
  company: Company;
  customer: Customer;
  location: Location | null;
  payments: Payment[];
  /** Whether a live definition of the invoice's printed resources has show_on_documents. */
  showsFields: boolean;
  /** The invoice's job's custom_fields (null without a job). */
  jobCustomFields: Record<string, unknown> | null;
}

/**
 * The records of a company's invoice that is not deleted, in one statement: null when there is no
 * such invoice; `undefined` when its company or customer row is missing (the caller then takes
 * the ORM path, whose findOneOrFail decides what that answers).
 */
export async function readInvoiceRecords(em: EntityManager, companyUuid: string, uuid: string): Promise<InvoiceRecords | null | undefined> {
  const q = invoiceQuery(em.getMetadata());
  const [row] = await runStatement<Record<string, unknown>[]>(em, q.sql, [uuid, companyUuid]);
  if (!row) return null;
  if (row.co__uuid === null || row.cu__uuid === null) return undefined;
  const invoice = leanRecord(em, Invoice, recordOf(row, 'i', q.invoiceColumns));
  invoice.companyToday = row.company_today as string;
  const payment = leanColumnMapper(em, Payment);
  return {
    invoice,
    company: leanRecord(em, Company, recordOf(row, 'co', q.companyColumns)),
    customer: leanRecord(em, Customer, recordOf(row, 'cu', q.customerColumns)),
    location: row.l__uuid === null ? null : leanRecord(em, Location, recordOf(row, 'l', q.locationColumns)),
    payments: (row.payments as Array<Record<string, unknown>>).map((p) => payment(p)),
    showsFields: row.shows_fields as boolean,
    jobCustomFields: (row.job_custom_fields as Record<string, unknown> | null) ?? null,
  };
}
