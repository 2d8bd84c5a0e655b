import { Customer } from '../customer/customer.entity';
import { CustomerCreateInput, CustomerUpdateInput } from '../customer/customer.inputs';
import { customerService } from '../customer/customer.service';
import { Estimate } from '../estimate/estimate.entity';
import { EstimateCreateInput, EstimateUpdateInput } from '../estimate/estimate.inputs';
import { estimateService } from '../estimate/estimate.service';
import { Invoice } from '../invoice/invoice.entity';
import { InvoiceCreateInput, InvoiceUpdateInput } from '../invoice/invoice.inputs';
import { invoiceService } from '../invoice/invoice.service';
import { Job } from '../job/job.entity';
import { JobCreateInput, JobUpdateInput } from '../job/job.inputs';
import { jobService } from '../job/job.service';
import { Location } from '../location/location.entity';
import { LocationCreateInput, LocationUpdateInput } from '../location/location.inputs';
import { locationService } from '../location/location.service';
import { Payment } from '../payment/payment.entity';
import { PaymentCreateInput, PaymentUpdateInput } from '../payment/payment.inputs';
import { paymentService } from '../payment/payment.service';
import { Template } from '../template/template.entity';
import { TemplateCreateInput, TemplateUpdateInput } from '../template/template.inputs';
import { templateService } from '../template/template.service';
import { Visit } from '../visit/visit.entity';
import { VisitCreateInput, VisitUpdateInput } from '../visit/visit.inputs';
import { visitService } from '../visit/visit.service';
import type { Resource } from '../../domain/scopes';
import type { ExternalIdResource } from './external-id.service';

// Every resource with external ids (docs/custom-fields.md): its lookup and upsert by (source, id)
// on both surfaces (src/rest/external-id-routes.ts, external-id.resolver.ts) and for the import.

export interface ExternalIdEntry {
  /** The REST plural (its path) and the scope's resource. */
  plural: string;
  scope: Resource;
  entity: new () => object;
  spec: ExternalIdResource<any, any, any>;
}

const entry = (plural: string, scope: Resource, entity: new () => object, spec: ExternalIdResource<any, any, any>): ExternalIdEntry => ({ plural, scope, entity, spec });

export const EXTERNAL_ID_RESOURCES: readonly ExternalIdEntry[] = [
  entry('customers', 'customers', Customer, { resource: 'customer', table: 'customers', label: 'Customer', create: CustomerCreateInput, update: CustomerUpdateInput, get: (c, u) => customerService.get(c, u), createRecord: (c, i) => customerService.create(c, i), updateRecord: (c, u, i) => customerService.update(c, u, i) }),
  entry('locations', 'locations', Location, { resource: 'location', table: 'locations', label: 'Location', create: LocationCreateInput, update: LocationUpdateInput, get: (c, u) => locationService.get(c, u), createRecord: (c, i) => locationService.create(c, i), updateRecord: (c, u, i) => locationService.update(c, u, i) }),
  entry('jobs', 'jobs', Job, { resource: 'job', table: 'jobs', label: 'Job', create: JobCreateInput, update: JobUpdateInput, get: (c, u) => jobService.get(c, u), createRecord: (c, i) => jobService.create(c, i), updateRecord: (c, u, i) => jobService.update(c, u, i) }),
  entry('visits', 'visits', Visit, { resource: 'visit', table: 'visits', label: 'Visit', create: VisitCreateInput, update: VisitUpdateInput, get: (c, u) => visitService.get(c, u), updateRecord: (c, u, i) => visitService.update(c, u, i) }),
  entry('estimates', 'estimates', Estimate, { resource: 'estimate', table: 'estimates', label: 'Estimate', create: EstimateCreateInput, update: EstimateUpdateInput, get: (c, u) => estimateService.get(c, u), updateRecord: (c, u, i) => estimateService.update(c, u, i) }),
  entry('invoices', 'invoices', Invoice, { resource: 'invoice', table: 'invoices', label: 'Invoice', create: InvoiceCreateInput, update: InvoiceUpdateInput, get: (c, u) => invoiceService.get(c, u), createRecord: (c, i) => invoiceService.create(c, i), updateRecord: (c, u, i) => invoiceService.update(c, u, i) }),
  entry('payments', 'payments', Payment, { resource: 'payment', table: 'payments', label: 'Payment', create: PaymentCreateInput, update: PaymentUpdateInput, get: (c, u) => paymentService.get(c, u), updateRecord: (c, u, i) => paymentService.update(c, u, i) }),
  entry('templates', 'templates', Template, { resource: 'template', table: 'templates', label: 'Template', create: TemplateCreateInput, update: TemplateUpdateInput, get: (c, u) => templateService.get(c, u), createRecord: (c, i) => templateService.create(c, i), updateRecord: (c, u, i) => templateService.update(c, u, i) }),
];
