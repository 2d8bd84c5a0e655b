import type { Embed } from '../../rest/route';
import { Customer } from '../customer/customer.entity';
import { Estimate } from '../estimate/estimate.entity';
import { Job } from '../job/job.entity';
import { Location } from '../location/location.entity';
import type { Payment } from '../payment/payment.entity';
import { Invoice } from './invoice.entity';

// The fixed embedded summaries of invoices and payments on REST (DECISIONS §2).
const customer: Embed = { key: 'customer', id: (i: Invoice) => i.customerUuid, entity: Customer, fields: ['uuid', 'first_name', 'last_name'] };

export const invoiceListEmbeds: Embed[] = [customer];
export const invoiceEmbeds: Embed[] = [
  customer,
  { key: 'job', id: (i: Invoice) => i.jobUuid, entity: Job, fields: ['uuid', 'job_number', 'title', 'status'] },
  { key: 'estimate', id: (i: Invoice) => i.estimateUuid, entity: Estimate, fields: ['uuid', 'estimate_number', 'status', 'total_amount'] },
  { key: 'location', id: (i: Invoice) => i.locationUuid, entity: Location, fields: ['uuid', 'name', 'city', 'state'] },
];

const invoice: Embed = { key: 'invoice', id: (p: Payment) => p.invoiceUuid, entity: Invoice, fields: ['uuid', 'invoice_number'] };
export const paymentListEmbeds: Embed[] = [invoice];
export const paymentEmbeds: Embed[] = [
  invoice,
  { key: 'customer', id: (p: Payment) => p.customerUuid, entity: Customer, fields: ['uuid', 'first_name', 'last_name', 'email', 'phone'] },
];
