import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../data/context';
import { dateIn, isUuid } from '../../domain/values';
import { companyTimezoneOf } from '../../data/company-time';
import { multiply, toCents } from '../../domain/money';
import { AppError } from '../../errors/app-error';
import { Company } from '../company/company.entity';
import { Customer } from '../customer/customer.entity';
import { Estimate, EstimateAcceptance } from '../estimate/estimate.entity';
import { adjustmentsToCents, Tier } from '../estimate/estimate.pricing';
import { Invoice } from '../invoice/invoice.entity';
import { Job } from '../job/job.entity';
import { Location } from '../location/location.entity';
import { Payment, PaymentStatus } from '../payment/payment.entity';
import { estimateInvoiceLines } from '../conversion/conversion.lines';
import { computeTotals, RateTax, taxByRate } from '../invoice/invoice-totals';
import { readInvoiceRecords } from './document.read';
import { DocumentFields, documentFields, NO_FIELDS, shownDefinitions } from './document.fields';

// What a customer document shows (PDF and page), read from the records of one company: plain
// data, in cents, so that its hash names the rendered bytes (ETag) without rendering them.

export type DocumentKind = 'invoice' | 'estimate';

export interface DocumentLine {
  description: string;
  quantity: number;
  unitPriceCents: number;
  amountCents: number;
}

export interface DocumentView {
  kind: DocumentKind;
  uuid: string;
  companyUuid: string;
  number: string;
  /** Fixes the PDF's creation date (and so its ID): the record's updated_at. */
  updatedAt: string;
  company: { name: string; address: string[]; phone: string | null; email: string };
  customer: { name: string; companyName: string | null; address: string[]; email: string | null };
  location: { name: string; address: string[] } | null;
  /** The custom fields it prints (document.fields.ts), as text: so a change of a label, of show_on_documents or of a value changes the ETag. */
  fields: DocumentFields;
  /** [label, date] pairs: issue and due, or created and expiry. */
  dates: Array<[string, string | null]>;
  lines: DocumentLine[];
  subtotalCents: number;
  /** Signed amounts between the subtotal and the tax (estimate adjustments, invoice discount). */
  adjustments: Array<[string, number]>;
  taxRate: number | null;
  /** An invoice whose lines carry different rates: its tax per non-zero rate (else empty; then one line, with taxRate when there is one). */
  taxByRate: RateTax[];
  taxCents: number;
  totalCents: number;
  status: string;
  invoice?: { payments: Array<{ date: string; number: string; method: string; amountCents: number }>; paidCents: number; balanceCents: number };
  estimate?: { pricingType: string; selectedTier: string | null; tiers: Array<{ tier: Tier; totalCents: number }>; acceptance: EstimateAcceptance | null };
  notes: string | null;
}

const NO_FILTERS = { filters: false } as const;

const join = (...parts: Array<string | null | undefined>) => parts.filter((p) => p && p.trim()).join(', ');

function companyPart(c: Company): DocumentView['company'] {
  const cityLine = join(c.city, join(c.state, c.postalCode).replace(', ', ' '));
  return { name: c.name, address: [c.addressLine1, c.addressLine2, cityLine, c.country].filter((x): x is string => !!x), phone: c.phone, email: c.email };
}

function customerPart(c: Customer): DocumentView['customer'] {
  const billing = !!c.billingAddress1;
  const [a1, a2, city, state, zip] = billing
    ? [c.billingAddress1, c.billingAddress2, c.billingCity, c.billingState, c.billingZip]
    : [c.physicalAddress1, c.physicalAddress2, c.physicalCity, c.physicalState, c.physicalZip];
  const last = [city, [state, zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return { name: `${c.firstName} ${c.lastName}`.trim(), companyName: c.companyName, address: [a1, a2, last].filter((x): x is string => !!x), email: c.email };
}

const locationPart = (l: Location | null): DocumentView['location'] =>
  l ? { name: l.name, address: [l.address1, l.address2, `${l.city}, ${l.state} ${l.zip}`].filter((x): x is string => !!x) } : null;


/**
 * How the view's records are read: `lean` (an invoice's in one statement, document.read.ts) or
 * `plain` (the ORM reads, one per record). Both give the same view (test/modules/document/document-view.spec.ts).
 */
export type ViewRead = 'lean' | 'plain';

/** The view of the company's (ctx's) document that is not deleted; 404 otherwise (as its GET). */
export async function loadDocumentView(ctx: RequestContext, kind: DocumentKind, uuid: string, read: ViewRead = 'lean'): Promise<DocumentView> {
  const { em, companyId: companyUuid } = ctx;
  const label = kind === 'invoice' ? 'Invoice' : 'Estimate';
  if (!isUuid(uuid)) throw AppError.notFound(label);
  if (kind === 'invoice' && read === 'lean') {
    const r = await readInvoiceRecords(em, companyUuid, uuid.toLowerCase());
    if (r === null) throw AppError.notFound(label);
    if (r) {
      // A company that prints no custom field on invoices reads no definition (the statement says so).
      const values = { document: r.invoice.customFields, job: r.jobCustomFields, customer: r.customer.customFields, location: r.location?.customFields ?? null };
      const fields = r.showsFields ? documentFields(await shownDefinitions(ctx, kind), values) : NO_FIELDS;
      return invoiceView(r.invoice, r.payments, baseOf(companyUuid, r.invoice, r.company, r.customer, r.location, fields));
    }
  }
  const where = { uuid: uuid.toLowerCase(), company: companyUuid, deletedAt: null };
  const record = kind === 'invoice' ? await em.findOne(Invoice, where, NO_FILTERS) : await em.findOne(Estimate, where, NO_FILTERS);
  if (!record) throw AppError.notFound(label);
  const [company, customer, location, shown] = await Promise.all([
    em.findOneOrFail(Company, companyUuid, NO_FILTERS),
    em.findOneOrFail(Customer, { uuid: record.customer.uuid, company: companyUuid }, NO_FILTERS),
    record.location ? em.findOne(Location, { uuid: record.location.uuid, company: companyUuid }, NO_FILTERS) : Promise.resolve(null),
    shownDefinitions(ctx, kind),
  ]);
  // The job is read only when the company prints some of its fields.
  const job = shown.job.length && record.job ? await em.findOne(Job, { uuid: record.job.uuid, company: companyUuid }, NO_FILTERS) : null;
  const values = { document: record.customFields, job: job?.customFields ?? null, customer: customer.customFields, location: location?.customFields ?? null };
  const base = baseOf(companyUuid, record, company, customer, location, documentFields(shown, values));
  if (!(record instanceof Invoice)) return estimateView(em, record as Estimate, base, await companyTimezoneOf(em, companyUuid));
  const payments = await em.find(Payment, { invoice: record.uuid, company: record.company.uuid, deletedAt: null, status: PaymentStatus.COMPLETED }, { ...NO_FILTERS, orderBy: { paymentDate: 'asc', createdAt: 'asc' } });
  return invoiceView(record, payments, base);
}

function baseOf(companyUuid: string, record: Invoice | Estimate, company: Company, customer: Customer, location: Location | null, fields: DocumentFields): Base {
  return { uuid: record.uuid, companyUuid, updatedAt: record.updatedAt.toISOString(), company: companyPart(company), customer: customerPart(customer), location: locationPart(location), fields };
}

type Base = Pick<DocumentView, 'uuid' | 'companyUuid' | 'updatedAt' | 'company' | 'customer' | 'location' | 'fields'>;

function invoiceView(i: Invoice, payments: Payment[], base: Base): DocumentView {
  const lines = (i.lineItems ?? []).map((l) => ({ description: l.description ?? '', quantity: l.quantity, unitPriceCents: toCents(l.unitPrice)!, amountCents: toCents(l.lineTotal)! }));
  const rates = [...new Set((i.lineItems ?? []).map((l) => l.taxRate))];
  // Per rate, from the one totals function; shown only when it adds up to the invoice's tax (a
  // sent tax_amount overrides the computed one: then one line, `Tax`).
  const stored = (i.lineItems ?? []).map((l) => ({ quantity: l.quantity, unitPriceCents: toCents(l.unitPrice)!, taxRate: l.taxRate }));
  const byRate = rates.length > 1 ? taxByRate(computeTotals({ lineItems: stored }).lines) : [];
  return {
    ...base,
    kind: 'invoice',
    number: i.invoiceNumber,
    dates: [['Issue date', i.issueDate], ['Due date', i.dueDate]],
    lines,
    subtotalCents: i.subtotalCents,
    adjustments: i.discountAmountCents ? [['Discount', -i.discountAmountCents]] : [],
    taxRate: rates.length === 1 ? rates[0] : null,
    taxByRate: byRate.reduce((sum, g) => sum + g.taxCents, 0) === i.taxAmountCents ? byRate : [],
    taxCents: i.taxAmountCents,
    totalCents: i.totalAmountCents,
    status: i.status,
    invoice: {
      payments: payments.map((p) => ({ date: p.paymentDate, number: p.paymentNumber, method: p.paymentMethod ?? p.paymentType, amountCents: p.amountCents })),
      paidCents: i.paidAmountCents,
      balanceCents: i.balanceAmountCents,
    },
    notes: i.notes,
  };
}

function estimateView(_em: EntityManager, e: Estimate, base: Base, timezone: string): DocumentView {
  const adj = e.adjustments ? adjustmentsToCents(e.adjustments) : {};
  const adjustments = typeof adj === 'string' ? {} : adj;
  const pricing = { templateName: e.templateName, snapshot: e.pricingSnapshot, quantity: e.quantity, selectedAddons: e.selectedAddons, adjustments };
  // The estimate's lines before adjustments (the invoice's lines are the same ones).
  const r = estimateInvoiceLines({ ...pricing, selectedTier: e.selectedTier as Tier | null, adjustments: {} });
  const lines = r.lines.map((l) => ({ description: l.description, quantity: l.quantity, unitPriceCents: l.unitPriceCents, amountCents: multiply(l.unitPriceCents, l.quantity) }));
  const subtotal = lines.reduce((sum, l) => sum + l.amountCents, 0);
  const change = e.baseAmountCents + e.addonsAmountCents - subtotal;
  const tiers = (['good', 'better', 'best'] as Tier[])
    .filter((t) => e.pricingType === 'tiered' && e.pricingSnapshot.tiers[t] !== null)
    .map((t) => ({ tier: t, totalCents: estimateInvoiceLines({ ...pricing, selectedTier: t }).totalCents }));
  return {
    ...base,
    kind: 'estimate',
    number: e.estimateNumber,
    dates: [['Date', dateIn(timezone, e.createdAt)], ['Valid until', e.expiresAt ? dateIn(timezone, e.expiresAt) : null]],
    lines,
    subtotalCents: subtotal,
    adjustments: change ? [['Adjustments', change]] : [],
    // An estimate has one rate (its lines carry none).
    taxRate: e.pricingSnapshot.tax_rate,
    taxByRate: [],
    taxCents: e.taxAmountCents,
    totalCents: e.totalAmountCents,
    status: e.status,
    estimate: { pricingType: e.pricingType, selectedTier: e.selectedTier, tiers, acceptance: e.acceptance ? { ...e.acceptance } : null },
    notes: e.customerNotes ?? e.serviceDescription,
  };
}
