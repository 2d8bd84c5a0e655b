import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../data/context';
import { companyTodayIn } from '../company/company.rules';
import { companyTimezoneOf } from '../../data/company-time';
import { fromCents } from '../../domain/money';
import { Company } from '../company/company.entity';
import type { Estimate } from '../estimate/estimate.entity';
import { Invoice, InvoiceStatus, InvoiceType } from '../invoice/invoice.entity';
import { InvoiceCreateInput, InvoiceLineItemInput } from '../invoice/invoice.inputs';
import { invoiceService } from '../invoice/invoice.service';
import { paymentSettingsOf } from './payment-settings';
import { paymentsConfigured } from './stripe.client';

// Deposits (docs/payments.md): a company with deposit_percent > 0 asks that share of an estimate's
// total when the customer accepts it on its page, as a Partial invoice of no job linked to the
// estimate; invoicing the job later deducts the deposits paid.

/** `percent` (two decimals at most) of `cents`, rounded half up to the cent. */
export const depositCents = (cents: number, percent: number) => Math.round((cents * Math.round(percent * 100)) / 10_000);

/**
 * The deposit invoice of an estimate just accepted, in the accepting transaction (`em`), or null
 * when none is asked (payments off, no connected account, deposit_percent 0).
 */
export async function createDeposit(em: EntityManager, companyUuid: string, estimate: Estimate): Promise<Invoice | null> {
  if (!paymentsConfigured()) return null;
  const settings = await paymentSettingsOf(em, companyUuid);
  const cents = depositCents(estimate.totalAmountCents, settings.depositPercent);
  if (!settings.stripeAccountId || cents <= 0) return null;
  const today = companyTodayIn(await companyTimezoneOf(em, companyUuid));
  // The public link's context: the company and its tenant scope, no user or key.
  em.setFilterParams('tenant', { companyId: companyUuid });
  const ctx = { companyId: companyUuid, em, company: em.getReference(Company, companyUuid) } as unknown as RequestContext;
  const line = Object.assign(new InvoiceLineItemInput(), { description: `Deposit (${settings.depositPercent}% of estimate ${estimate.estimateNumber})`, quantity: 1, unitPrice: fromCents(cents), taxRate: 0 });
  const input = Object.assign(new InvoiceCreateInput(), {
    jobUuid: null,
    customerUuid: estimate.customer.uuid,
    estimateUuid: estimate.uuid,
    locationUuid: estimate.location?.uuid ?? null,
    invoiceType: InvoiceType.PARTIAL,
    status: InvoiceStatus.PENDING,
    issueDate: today,
    dueDate: today,
    lineItems: [line],
  });
  return invoiceService.create(ctx, input);
}

/** The estimate's deposit invoices that are paid (not deleted), oldest first: invoiceJob deducts them. */
export function paidDeposits(tx: RequestContext, estimateUuid: string): Promise<Invoice[]> {
  return tx.em.find(
    Invoice,
    { company: tx.companyId, estimate: estimateUuid, job: null, invoiceType: InvoiceType.PARTIAL, storedStatus: InvoiceStatus.PAID, deletedAt: null },
    { orderBy: { createdAt: 'asc' }, filters: false },
  );
}
