import { contextFor } from '../auth/authenticate';
import type { RequestContext } from '../data/context';
import { Orm, withAdvisoryLock } from '../db/orm';
import { createCompany } from '../modules/company/company.admin';
import { Company } from '../modules/company/company.entity';
import { CustomerCreateInput, } from '../modules/customer/customer.inputs';
import { customerService } from '../modules/customer/customer.service';
import { LocationCreateInput } from '../modules/location/location.inputs';
import { locationService } from '../modules/location/location.service';
import { CustomerType } from '../modules/customer/customer.entity';

import { EstimateSelectedTier } from '../modules/estimate/estimate.entity';
import { EstimateCreateInput } from '../modules/estimate/estimate.inputs';
import { estimateService } from '../modules/estimate/estimate.service';
import { TemplateCreateInput } from '../modules/template/template.inputs';
import { templateService } from '../modules/template/template.service';
import { TemplatePricingType } from '../modules/template/template.entity';
import { InvoiceCreateInput, InvoiceLineItemInput } from '../modules/invoice/invoice.inputs';
import { invoiceService } from '../modules/invoice/invoice.service';
import { JobPriority, JobStatus } from '../modules/job/job.entity';
import { JobCreateInput } from '../modules/job/job.inputs';
import { jobService } from '../modules/job/job.service';
import { PaymentCreateInput } from '../modules/payment/payment.inputs';
import { paymentService } from '../modules/payment/payment.service';
import { PaymentType } from '../modules/payment/payment.entity';
const SEED_LOCK = 7_246_002;

const input = <T>(cls: new () => T, values: Partial<T>): T => Object.assign(new cls() as object, values) as T;

/** Steps that add demo records through the services, in order; later modules append theirs. */
export const demoSteps: Array<(ctx: RequestContext, made: Record<string, any>) => Promise<void>> = [
  async (ctx, made) => {
    made.location = await locationService.create(
      ctx,
      input(LocationCreateInput, { name: 'Main Shop', address1: '100 Main St', city: 'Springfield', state: 'IL', zip: '62701', phone: '217-555-0100', isPrimary: true }),
    );
    made.customers = [];
    for (const c of [
      { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '217-555-0101', isVip: true },
      { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', phone: '217-555-0102' },
      { firstName: 'Alan', lastName: 'Turing', companyName: 'Turing Machines LLC', customerType: CustomerType.COMMERCIAL, email: 'alan@example.com' },
    ]) {
      made.customers.push(await customerService.create(ctx, input(CustomerCreateInput, { ...c, primaryServiceLocationUuid: made.location.uuid })));
    }
  },
  // A scheduled job for the first customer, assigned to the key's user.
  async (ctx, made) => {
    made.job = await jobService.create(
      ctx,
      input(JobCreateInput, {
        customerUuid: made.customers[0].uuid,
        title: 'Water heater replacement',
        description: 'Old 50 gal gas unit leaking at the base',
        locationUuid: made.location.uuid,
        assignedToUserId: ctx.user.id,
        status: JobStatus.SCHEDULED,
        priority: JobPriority.HIGH,
        estimatedAmount: 1875,
        scheduledDate: new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10),
        scheduledTimeStart: '09:00',
        scheduledTimeEnd: '12:00',
      }),
    );
  },
  // A priced template and an estimate from it (linked to the demo job when one was made first).
  async (ctx, made) => {
    made.template = await templateService.create(
      ctx,
      input(TemplateCreateInput, {
        name: 'Water heater replacement',
        pricingType: TemplatePricingType.TIERED,
        tiers: { good: 1450, better: 1875, best: 2600 },
        addons: [
          { id: 'haul-away', name: 'Haul away old unit', price: 95 },
          { id: 'expansion-tank', name: 'Expansion tank', price: 180 },
        ],
        taxRate: 6.25,
      }),
    );
    const job = made.job && made.job.customerUuid === made.customers[0].uuid ? made.job : null;
    made.estimate = await estimateService.create(
      ctx,
      input(EstimateCreateInput, {
        customerUuid: made.customers[0].uuid,
        templateUuid: made.template.uuid,
        jobUuid: job?.uuid ?? null,
        locationUuid: made.location.uuid,
        selectedTier: EstimateSelectedTier.BETTER,
        selectedAddons: ['haul-away'],
        serviceDescription: 'Replace 50 gal gas water heater',
      }),
    );
  },
  // An invoice for the demo job (made here when no earlier step made one) with a deposit paid.
  async (ctx, made) => {
    const customer = made.customers[0];
    made.job ??= await jobService.create(ctx, input(JobCreateInput, { customerUuid: customer.uuid, title: 'Water heater replacement', locationUuid: made.location.uuid }));
    const estimate = made.estimate?.customerUuid === made.job.customerUuid ? made.estimate : null;
    const line = (description: string, unitPrice: number) => input(InvoiceLineItemInput, { description, unitPrice, quantity: 1, taxRate: 6.25 });
    made.invoice = await invoiceService.create(
      ctx,
      input(InvoiceCreateInput, {
        jobUuid: made.job.uuid,
        customerUuid: made.job.customerUuid,
        estimateUuid: estimate?.uuid ?? null,
        locationUuid: made.location.uuid,
        dueDate: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
        lineItems: [line('50 gal gas water heater, installed', 1875), line('Haul away old unit', 95)],
        terms: 'Net 30',
      }),
    );
    made.payment = await paymentService.create(
      ctx,
      input(PaymentCreateInput, { invoiceUuid: made.invoice.uuid, paymentType: PaymentType.CREDIT_CARD, paymentMethod: 'visa', amount: 500, paymentDate: made.invoice.issueDate, notes: 'Deposit' }),
    );
  },
];

/** When the database holds no company yet: a demo company with sample data; returns its key. */
export async function seedDemoIfEmpty(orm: Orm): Promise<{ company: Company; apiKey: string } | null> {
  return withAdvisoryLock(orm, SEED_LOCK, async () => {
    const em = orm.em.fork({ useContext: true });
    if ((await em.count(Company, {}, { filters: false })) > 0) return null;
    const { company, key, apiKey } = await createCompany(em, { name: 'Demo Plumbing & Heating', email: 'office@demo-plumbing.example' });
    const ctx = contextFor(em, key, 'seed');
    const made: Record<string, any> = {};
    for (const step of demoSteps) await step(ctx, made);
    return { company, apiKey };
  });
}
