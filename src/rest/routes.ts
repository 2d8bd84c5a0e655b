import { DeleteResult, ListArgs } from '../schema/pagination';
import { Company } from '../modules/company/company.entity';
import { companyService } from '../modules/company/company.service';
import { Customer } from '../modules/customer/customer.entity';
import { CustomerCreateInput, CustomerListArgs, CustomerUpdateInput } from '../modules/customer/customer.inputs';
import { customerService } from '../modules/customer/customer.service';
import { Job } from '../modules/job/job.entity';
import { JobCreateInput, JobListArgs, JobUpdateInput } from '../modules/job/job.inputs';
import { jobService } from '../modules/job/job.service';
import { JobPhoto } from '../modules/job-photo/job-photo.entity';
import { PhotoListArgs, PhotoUploadResult } from '../modules/job-photo/job-photo.inputs';
import { PHOTO_MULTIPART_FIELDS, restUploadSource } from '../modules/job-photo/job-photo.rest';
import { jobPhotoService } from '../modules/job-photo/job-photo.service';
import { Invoice } from '../modules/invoice/invoice.entity';
import { InvoiceCreateInput, InvoiceListArgs, InvoicePreview, InvoicePreviewInput, InvoiceUpdateInput } from '../modules/invoice/invoice.inputs';
import { invoiceService } from '../modules/invoice/invoice.service';
import { Location } from '../modules/location/location.entity';
import { LocationCreateInput, LocationListArgs, LocationUpdateInput } from '../modules/location/location.inputs';
import { locationService } from '../modules/location/location.service';
import { Payment } from '../modules/payment/payment.entity';
import { PaymentCreateInput, PaymentListArgs, PaymentUpdateInput } from '../modules/payment/payment.inputs';
import { paymentService } from '../modules/payment/payment.service';
import { User } from '../modules/user/user.entity';
import { Estimate } from '../modules/estimate/estimate.entity';
import { EstimateCreateInput, EstimateListArgs, EstimatePreviewInput, EstimateUpdateInput } from '../modules/estimate/estimate.inputs';
import { EstimatePreview } from '../modules/estimate/estimate.preview';
import { estimateService } from '../modules/estimate/estimate.service';
import { NumberingUpdateInput } from '../modules/numbering/numbering.inputs';
import { numberingService } from '../modules/numbering/numbering.service';
import { NumberingSettings, NumberingUpdateResult } from '../modules/numbering/numbering.types';
import { Template } from '../modules/template/template.entity';
import { TemplateCreateInput, TemplateUpdateInput } from '../modules/template/template.inputs';
import { templateService } from '../modules/template/template.service';
import { Visit } from '../modules/visit/visit.entity';
import { VisitAssignInput, VisitCompleteInput, VisitCreateInput, VisitListArgs, VisitUpdateInput } from '../modules/visit/visit.inputs';
import { visitService } from '../modules/visit/visit.service';
import { JobSchedule } from '../modules/schedule/schedule.entity';
import { JobScheduleInput, SchedulePreview, SchedulePreviewInput } from '../modules/schedule/schedule.inputs';
import { scheduleService } from '../modules/schedule/schedule.service';
import { RecurringInvoice } from '../modules/recurring/recurring.entity';
import { RecurringInvoiceCreateInput, RecurringInvoicePreview, RecurringInvoicePreviewInput, RecurringInvoiceUpdateInput } from '../modules/recurring/recurring.inputs';
import { recurringInvoiceService as agreements } from '../modules/recurring/recurring.service';
import { CompanySettingsInput } from '../modules/company/company.inputs';
import { ConvertEstimateInput, EstimateConversion, InvoiceJobInput } from '../modules/conversion/conversion.inputs';
import { conversionService } from '../modules/conversion/conversion.service';
import { DocumentFile } from '../modules/document/document.types';
import { documentService } from '../modules/document/document.service';
import { ShareLink, ShareLinkInput } from '../modules/document/share.inputs';
import { shareService } from '../modules/document/share.service';
import { DocumentEmail, SendDocumentInput } from '../modules/document/mail.inputs';
import { mailService } from '../modules/document/mail.service';
import { EventFeedArgs } from '../modules/event/event.inputs';
import { eventService, FEED_SCOPE } from '../modules/event/event.service';
import { Event, EventFeed, EventsHead, EventTypeCatalogue } from '../modules/event/event.types';
import { WebhookDeliveryListArgs, WebhookPageArgs, WebhookEndpointCreateInput, WebhookEndpointUpdateInput, WebhookReplayInput } from '../modules/webhook/webhook.inputs';
import { webhookService } from '../modules/webhook/webhook.service';
import { WebhookDelivery, WebhookDeliveryDetail, WebhookEndpoint, WebhookEndpointWithSecret, WebhookReplayResult } from '../modules/webhook/webhook.types';
import { checkoutService, CheckoutSession, InvoiceCheckoutInput } from '../modules/online-payment/checkout';
import { PaymentOnboardingLink, PaymentSettings, PaymentSettingsInput, paymentSettingsService } from '../modules/online-payment/payment-settings';
import { PaymentRefundInput, refundService } from '../modules/online-payment/refund';
import type { Embed, RouteDef } from './route';
import { peopleRoutes } from './people-routes';
import { exportRoutes } from './export-routes';
import { Import, ImportErrorList, ImportErrorsArgs, ImportListArgs } from '../modules/import/import.types';
import { importService } from '../modules/import/import.service';
import { IMPORT_MULTIPART_FIELDS, receiveImport } from '../modules/import/import.rest';
import { externalIdRoutes } from './external-id-routes';
import { CustomFieldDefinition } from '../modules/custom-field/custom-field.entity';
import { CustomFieldCreateInput, CustomFieldListArgs, CustomFieldUpdateInput } from '../modules/custom-field/custom-field.inputs';
import { customFieldService } from '../modules/custom-field/custom-field.service';

// Summaries of related records embedded in REST responses (docs/conventions.md): fixed keys, each
// declared once; lists show only their first summary.
const customer: Embed = { key: 'customer', id: (r: { customerUuid: string }) => r.customerUuid, entity: Customer, fields: ['uuid', 'first_name', 'last_name'], scope: 'customers:read' };
const location: Embed = { key: 'location', id: (r: { locationUuid: string | null }) => r.locationUuid, entity: Location, fields: ['uuid', 'name', 'city', 'state'], scope: 'locations:read' };
const job: Embed = { key: 'job', id: (r: { jobUuid: string | null }) => r.jobUuid, entity: Job, fields: ['uuid', 'job_number', 'title', 'status'], scope: 'jobs:read' };
const invoice: Embed = { key: 'invoice', id: (p: Payment) => p.invoiceUuid, entity: Invoice, fields: ['uuid', 'invoice_number'], scope: 'invoices:read' };
const user = (key: string, id: (r: any) => string | null): Embed => ({ key, id, entity: User, fields: ['id', 'first_name', 'last_name'], scope: 'users:read' });

const jobEmbeds: Embed[] = [customer, location, user('assigned_user', (j: Job) => j.assignedToUserId)];
const photoUser = user('user', (p: JobPhoto) => p.userId);
const estimateEmbeds: Embed[] = [customer, job, { key: 'template', id: (e: Estimate) => e.templateUuid, entity: Template, fields: ['uuid', 'name', 'pricing_type'], scope: 'templates:read' }, location];
const invoiceEmbeds: Embed[] = [customer, job, { key: 'estimate', id: (i: Invoice) => i.estimateUuid, entity: Estimate, fields: ['uuid', 'estimate_number', 'status', 'total_amount'], scope: 'estimates:read' }, location];
const paymentEmbeds: Embed[] = [invoice, { key: 'customer', id: (p: Payment) => p.customerUuid, entity: Customer, fields: ['uuid', 'first_name', 'last_name', 'email', 'phone'], scope: 'customers:read' }];

const withSecret = (r: { endpoint: WebhookEndpoint; secret: string }) => Object.assign(new WebhookEndpointWithSecret(), r.endpoint, { secret: r.secret });

// The REST surface: one row per route. Rows call the same services as the GraphQL resolvers.
const table: RouteDef[] = [
  { method: 'GET', path: '/companies/me', scope: 'company:read', summary: 'The company of the API key', output: Company, call: (ctx) => companyService.me(ctx) },
  { method: 'PUT', path: '/companies/me/settings', operationId: 'updateCompanySettings', scope: 'company:write', summary: "Change the company's settings (prevent_double_booking)", body: CompanySettingsInput, output: Company, call: (ctx, a) => companyService.updateSettings(ctx, a.body) },
  { method: 'GET', path: '/companies/me/payment_settings', operationId: 'getPaymentSettings', scope: 'company:read', summary: "The company's online-payment settings (Stripe)", output: PaymentSettings, call: (ctx) => paymentSettingsService.get(ctx) },
  { method: 'PUT', path: '/companies/me/payment_settings', operationId: 'updatePaymentSettings', scope: 'company:write', summary: "Change the company's online-payment settings (fields not sent keep their values)", body: PaymentSettingsInput, output: PaymentSettings, call: (ctx, a) => paymentSettingsService.update(ctx, a.body) },
  { method: 'POST', path: '/companies/me/payment_settings/onboarding_link', operationId: 'createPaymentOnboardingLink', scope: 'company:write', summary: "A Stripe onboarding link for the company's connected account", output: PaymentOnboardingLink, call: (ctx) => paymentSettingsService.onboardingLink(ctx) },

  ...peopleRoutes,

  // The company's custom fields (docs/custom-fields.md): owners and admins change them.
  { method: 'GET', path: '/custom_fields', scope: 'custom_fields:read', summary: 'List custom field definitions', plural: 'custom_fields', query: CustomFieldListArgs, output: CustomFieldDefinition, call: (ctx, a) => customFieldService.list(ctx, a.query) },
  { method: 'GET', path: '/custom_fields/:uuid', scope: 'custom_fields:read', summary: 'Get a custom field definition', output: CustomFieldDefinition, call: (ctx, a) => customFieldService.get(ctx, a.params.uuid) },
  { method: 'POST', path: '/custom_fields', scope: 'custom_fields:write', summary: 'Define a custom field of a resource', body: CustomFieldCreateInput, output: CustomFieldDefinition, creates: true, call: (ctx, a) => customFieldService.create(ctx, a.body) },
  { method: 'PUT', path: '/custom_fields/:uuid', scope: 'custom_fields:write', summary: 'Update a custom field (not its resource, key or type)', body: CustomFieldUpdateInput, output: CustomFieldDefinition, call: (ctx, a) => customFieldService.update(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/custom_fields/:uuid', scope: 'custom_fields:write', summary: "Delete a custom field: its values are hidden, and kept", output: DeleteResult, call: (ctx, a) => customFieldService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/custom_fields/:uuid/restore', scope: 'custom_fields:write', summary: 'Restore a deleted custom field and show its values again', output: CustomFieldDefinition, call: (ctx, a) => customFieldService.restore(ctx, a.params.uuid) },

  { method: 'GET', path: '/customers', scope: 'customers:read', summary: 'List customers', plural: 'customers', query: CustomerListArgs, output: Customer, call: (ctx, a) => customerService.list(ctx, a.query) },
  { method: 'GET', path: '/customers/:uuid', scope: 'customers:read', summary: 'Get a customer', output: Customer, call: (ctx, a) => customerService.read(ctx, a.params.uuid) },
  { method: 'POST', path: '/customers', scope: 'customers:write', summary: 'Create a customer', body: CustomerCreateInput, output: Customer, creates: true, call: (ctx, a) => customerService.create(ctx, a.body) },
  { method: 'PUT', path: '/customers/:uuid', scope: 'customers:write', summary: 'Update a customer', body: CustomerUpdateInput, output: Customer, call: (ctx, a) => customerService.update(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/customers/:uuid', scope: 'customers:write', summary: 'Delete a customer', output: DeleteResult, call: (ctx, a) => customerService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/customers/:uuid/restore', scope: 'customers:write', summary: 'Restore a deleted customer', output: Customer, call: (ctx, a) => customerService.restore(ctx, a.params.uuid) },

  { method: 'GET', path: '/locations', scope: 'locations:read', summary: 'List locations', plural: 'locations', query: LocationListArgs, output: Location, call: (ctx, a) => locationService.list(ctx, a.query) },
  { method: 'GET', path: '/locations/:uuid', scope: 'locations:read', summary: 'Get a location', output: Location, call: (ctx, a) => locationService.get(ctx, a.params.uuid) },
  { method: 'POST', path: '/locations', scope: 'locations:write', summary: 'Create a location', body: LocationCreateInput, output: Location, creates: true, call: (ctx, a) => locationService.create(ctx, a.body) },
  { method: 'PUT', path: '/locations/:uuid', scope: 'locations:write', summary: 'Update a location', body: LocationUpdateInput, output: Location, call: (ctx, a) => locationService.update(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/locations/:uuid', scope: 'locations:write', summary: 'Delete a location (not the primary one)', output: DeleteResult, call: (ctx, a) => locationService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/locations/:uuid/restore', scope: 'locations:write', summary: 'Restore a deleted location (never primary)', output: Location, call: (ctx, a) => locationService.restore(ctx, a.params.uuid) },

  { method: 'GET', path: '/invoices', scope: 'invoices:read', summary: 'List invoices', plural: 'invoices', query: InvoiceListArgs, output: Invoice, embed: [customer], call: (ctx, a) => invoiceService.list(ctx, a.query, a.include) },
  { method: 'GET', path: '/invoices/:uuid', scope: 'invoices:read', summary: 'Get an invoice with customer, job, estimate and location', output: Invoice, embed: invoiceEmbeds, call: (ctx, a) => invoiceService.get(ctx, a.params.uuid) },
  { method: 'GET', path: '/invoices/:uuid/pdf', scope: 'invoices:read', summary: 'The invoice as a PDF', output: DocumentFile, file: 'application/pdf', call: (ctx, a) => documentService.pdf(ctx, 'invoice', a.params.uuid) },
  { method: 'POST', path: '/invoices/:uuid/share_link', scope: 'invoices:write', summary: 'A link that opens the invoice for the customer (no key needed)', body: ShareLinkInput, output: ShareLink, call: (ctx, a) => shareService.create(ctx, 'invoice', a.params.uuid, a.body) },
  { method: 'DELETE', path: '/invoices/:uuid/share_link', scope: 'invoices:write', summary: "Revoke the invoice's open links", output: DeleteResult, call: (ctx, a) => shareService.revoke(ctx, 'invoice', a.params.uuid) },
  { method: 'POST', path: '/invoices/:uuid/send', scope: 'invoices:write', summary: 'Mail the invoice (PDF attached, share link in the body); a Draft becomes Pending', body: SendDocumentInput, output: DocumentEmail, creates: true, call: (ctx, a) => mailService.send(ctx, 'invoice', a.params.uuid, a.body) },
  { method: 'GET', path: '/invoices/:uuid/emails', scope: 'invoices:read', summary: 'Messages that sent the invoice, newest first', plural: 'emails', query: ListArgs, output: DocumentEmail, call: (ctx, a) => mailService.list(ctx, 'invoice', a.params.uuid, a.query) },
  { method: 'POST', path: '/invoices/:uuid/checkout', operationId: 'createInvoiceCheckout', scope: ['payments:write', 'invoices:read'], summary: 'A Stripe Checkout page for the invoice (default: its balance)', body: InvoiceCheckoutInput, output: CheckoutSession, call: (ctx, a) => checkoutService.create(ctx, a.params.uuid, a.body) },
  { method: 'POST', path: '/invoices/preview', scope: 'invoices:read', summary: 'Invoice totals without creating (dry run)', body: InvoicePreviewInput, output: InvoicePreview, call: (ctx, a) => invoiceService.preview(ctx, a.body) },
  { method: 'POST', path: '/invoices', scope: 'invoices:write', summary: 'Create an invoice from a job', body: InvoiceCreateInput, output: Invoice, embed: invoiceEmbeds, creates: true, call: (ctx, a) => invoiceService.create(ctx, a.body) },
  { method: 'PUT', path: '/invoices/:uuid', scope: 'invoices:write', summary: 'Update an invoice (amounts recomputed)', body: InvoiceUpdateInput, output: Invoice, embed: invoiceEmbeds, call: (ctx, a) => invoiceService.update(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/invoices/:uuid', scope: 'invoices:write', summary: 'Delete an invoice (not one with Completed payments)', output: DeleteResult, call: (ctx, a) => invoiceService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/invoices/:uuid/restore', scope: 'invoices:write', summary: 'Restore a deleted invoice (its customer must be live)', output: Invoice, embed: invoiceEmbeds, call: (ctx, a) => invoiceService.restore(ctx, a.params.uuid) },

  // Service agreements (docs/recurring-work.md); /recurring_invoices/preview before /:uuid.
  { method: 'POST', path: '/recurring_invoices/preview', scope: 'recurring_invoices:read', summary: 'The next invoices of an agreement, without writing', body: RecurringInvoicePreviewInput, output: RecurringInvoicePreview, call: (ctx, a) => agreements.preview(ctx, a.body) },
  { method: 'GET', path: '/recurring_invoices', scope: 'recurring_invoices:read', summary: 'List recurring invoices (service agreements)', plural: 'recurring_invoices', query: ListArgs, output: RecurringInvoice, embed: [customer], call: (ctx, a) => agreements.list(ctx, a.query, a.include) },
  { method: 'GET', path: '/recurring_invoices/:uuid', scope: 'recurring_invoices:read', summary: 'Get a recurring invoice', output: RecurringInvoice, embed: [customer, job], call: (ctx, a) => agreements.get(ctx, a.params.uuid) },
  { method: 'POST', path: '/recurring_invoices', scope: 'recurring_invoices:write', summary: 'Create a recurring invoice: one invoice per occurrence, missed ones caught up (at most 12)', body: RecurringInvoiceCreateInput, output: RecurringInvoice, embed: [customer, job], creates: true, call: (ctx, a) => agreements.create(ctx, a.body) },
  { method: 'PUT', path: '/recurring_invoices/:uuid', scope: 'recurring_invoices:write', summary: 'Update a recurring invoice (a new rule applies from today)', body: RecurringInvoiceUpdateInput, output: RecurringInvoice, embed: [customer, job], call: (ctx, a) => agreements.update(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/recurring_invoices/:uuid', scope: 'recurring_invoices:write', summary: 'Delete a recurring invoice (its invoices stay)', output: DeleteResult, call: (ctx, a) => agreements.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/recurring_invoices/:uuid/restore', scope: 'recurring_invoices:write', summary: 'Restore a deleted recurring invoice', output: RecurringInvoice, embed: [customer, job], call: (ctx, a) => agreements.restore(ctx, a.params.uuid) },
  { method: 'POST', path: '/recurring_invoices/:uuid/pause', scope: 'recurring_invoices:write', summary: 'Pause a recurring invoice', output: RecurringInvoice, embed: [customer, job], call: (ctx, a) => agreements.pause(ctx, a.params.uuid) },
  { method: 'POST', path: '/recurring_invoices/:uuid/resume', scope: 'recurring_invoices:write', summary: 'Resume from today (paused dates are not invoiced)', output: RecurringInvoice, embed: [customer, job], call: (ctx, a) => agreements.resume(ctx, a.params.uuid) },

  { method: 'GET', path: '/payments', scope: 'payments:read', summary: 'List payments', plural: 'payments', query: PaymentListArgs, output: Payment, embed: [invoice], call: (ctx, a) => paymentService.list(ctx, a.query, a.include) },
  { method: 'GET', path: '/payments/:uuid', scope: 'payments:read', summary: 'Get a payment with invoice and customer', output: Payment, embed: paymentEmbeds, call: (ctx, a) => paymentService.get(ctx, a.params.uuid) },
  { method: 'POST', path: '/payments', scope: 'payments:write', summary: 'Record a payment on an invoice', body: PaymentCreateInput, output: Payment, embed: paymentEmbeds, creates: true, call: (ctx, a) => paymentService.create(ctx, a.body) },
  { method: 'PUT', path: '/payments/:uuid', scope: 'payments:write', summary: 'Update a payment (the invoice balance follows)', body: PaymentUpdateInput, output: Payment, embed: paymentEmbeds, call: (ctx, a) => paymentService.update(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/payments/:uuid', scope: 'payments:write', summary: 'Delete a payment (the invoice balance follows)', output: DeleteResult, call: (ctx, a) => paymentService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/payments/:uuid/restore', scope: 'payments:write', summary: 'Restore a deleted payment (it counts on its invoice again; never overpays)', output: Payment, embed: paymentEmbeds, call: (ctx, a) => paymentService.restore(ctx, a.params.uuid) },
  { method: 'POST', path: '/payments/:uuid/refund', operationId: 'refundPayment', scope: 'payments:write', summary: 'Refund an online payment through Stripe (default: all that is left)', body: PaymentRefundInput, output: Payment, embed: paymentEmbeds, call: (ctx, a) => refundService.refund(ctx, a.params.uuid, a.body) },

  { method: 'GET', path: '/jobs', scope: 'jobs:read', summary: 'List jobs', plural: 'jobs', query: JobListArgs, output: Job, embed: [customer], call: (ctx, a) => jobService.list(ctx, a.query, a.include) },
  { method: 'GET', path: '/jobs/:uuid', scope: 'jobs:read', summary: 'Get a job with customer, location and assigned user', output: Job, embed: jobEmbeds, call: (ctx, a) => jobService.get(ctx, a.params.uuid) },
  { method: 'POST', path: '/jobs', scope: 'jobs:write', summary: 'Create a job', body: JobCreateInput, output: Job, embed: jobEmbeds, creates: true, call: (ctx, a) => jobService.create(ctx, a.body) },
  { method: 'PUT', path: '/jobs/:uuid', scope: 'jobs:write', summary: 'Update a job', body: JobUpdateInput, output: Job, embed: jobEmbeds, call: (ctx, a) => jobService.update(ctx, a.params.uuid, a.body) },
  { method: 'POST', path: '/jobs/:uuid/invoice', scope: ['invoices:write', 'jobs:read'], summary: "Invoice a job: its Accepted estimate's lines, else one line of the job's amount", body: InvoiceJobInput, output: Invoice, embed: invoiceEmbeds, creates: true, call: (ctx, a) => conversionService.invoiceJob(ctx, a.params.uuid, a.body) },
  { method: 'GET', path: '/jobs/:uuid/schedule', scope: 'jobs:read', summary: "Get the job's schedule (recurring visits)", output: JobSchedule, call: (ctx, a) => scheduleService.get(ctx, a.params.uuid) },
  { method: 'PUT', path: '/jobs/:uuid/schedule', scope: 'jobs:write', summary: "Set the job's schedule; its visits to the horizon exist when this answers", body: JobScheduleInput, output: JobSchedule, call: (ctx, a) => scheduleService.set(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/jobs/:uuid/schedule', scope: 'jobs:write', summary: 'Delete the schedule (future generated visits not changed by hand go with it)', output: DeleteResult, call: (ctx, a) => scheduleService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/schedules/preview', scope: 'jobs:read', summary: 'The next occurrences of a schedule, without writing', body: SchedulePreviewInput, output: SchedulePreview, call: (ctx, a) => scheduleService.preview(ctx, a.body) },
  { method: 'DELETE', path: '/jobs/:uuid', scope: 'jobs:write', summary: 'Delete a job', output: DeleteResult, call: (ctx, a) => jobService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/jobs/:uuid/restore', scope: 'jobs:write', summary: 'Restore a deleted job (its customer must be live; it keeps its number)', output: Job, embed: jobEmbeds, call: (ctx, a) => jobService.restore(ctx, a.params.uuid) },

  { method: 'GET', path: '/jobs/:job_uuid/photos', scope: 'photos:read', summary: "List a job's photos", plural: 'photos', query: PhotoListArgs, output: JobPhoto, embed: [photoUser], call: (ctx, a) => jobPhotoService.list(ctx, a.params.job_uuid, a.query, a.include) },
  { method: 'GET', path: '/jobs/:job_uuid/photos/:photo_uuid', scope: 'photos:read', summary: 'Get a job photo', output: JobPhoto, embed: [photoUser], call: (ctx, a) => jobPhotoService.get(ctx, a.params.job_uuid, a.params.photo_uuid) },
  { method: 'POST', path: '/jobs/:job_uuid/photos', scope: 'photos:write', summary: 'Upload job photos (multipart/form-data; needs the job_photos add-on)', output: PhotoUploadResult, embed: [photoUser], embedIn: 'photos', addon: 'job_photos', multipart: { fields: PHOTO_MULTIPART_FIELDS }, call: (ctx, a) => jobPhotoService.upload(ctx, a.params.job_uuid, restUploadSource(a.req!)) },
  { method: 'DELETE', path: '/jobs/:job_uuid/photos/:photo_uuid', scope: 'photos:write', summary: 'Delete a job photo (the file stays in storage)', output: DeleteResult, call: (ctx, a) => jobPhotoService.remove(ctx, a.params.job_uuid, a.params.photo_uuid) },
  { method: 'POST', path: '/jobs/:job_uuid/photos/:photo_uuid/restore', scope: 'photos:write', summary: 'Restore a deleted job photo', output: JobPhoto, embed: [photoUser], call: (ctx, a) => jobPhotoService.restore(ctx, a.params.job_uuid, a.params.photo_uuid) },

  { method: 'GET', path: '/jobs/:job_uuid/visits', scope: 'visits:read', summary: "List a job's visits (by start, unscheduled last)", plural: 'visits', query: VisitListArgs, output: Visit, call: (ctx, a) => visitService.listForJob(ctx, a.params.job_uuid, a.query, a.include) },
  { method: 'POST', path: '/jobs/:job_uuid/visits', scope: 'visits:write', summary: 'Create a visit of a job', body: VisitCreateInput, output: Visit, embed: [job], creates: true, call: (ctx, a) => visitService.create(ctx, a.params.job_uuid, a.body) },
  { method: 'GET', path: '/visits', scope: 'visits:read', summary: 'The calendar: visits overlapping [from, to), by start, unscheduled last', plural: 'visits', query: VisitListArgs, output: Visit, call: (ctx, a) => visitService.list(ctx, a.query, a.include) },
  { method: 'GET', path: '/visits/:uuid', scope: 'visits:read', summary: 'Get a visit', output: Visit, embed: [job], call: (ctx, a) => visitService.get(ctx, a.params.uuid) },
  { method: 'PUT', path: '/visits/:uuid', scope: 'visits:write', summary: 'Update a visit', body: VisitUpdateInput, output: Visit, embed: [job], call: (ctx, a) => visitService.update(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/visits/:uuid', scope: 'visits:write', summary: 'Delete a visit', output: DeleteResult, call: (ctx, a) => visitService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/visits/:uuid/restore', scope: 'visits:write', summary: 'Restore a deleted visit (its job must be live; its crew is booked again)', output: Visit, embed: [job], call: (ctx, a) => visitService.restore(ctx, a.params.uuid) },
  { method: 'POST', path: '/visits/:uuid/complete', scope: 'visits:write', summary: 'Complete a visit (not a Cancelled one)', body: VisitCompleteInput, output: Visit, embed: [job], call: (ctx, a) => visitService.complete(ctx, a.params.uuid, a.body) },
  { method: 'POST', path: '/visits/:uuid/assign', scope: 'visits:write', summary: 'Assign users to a visit (replace, add or remove); 409 SCHEDULE_CONFLICT on double booking', body: VisitAssignInput, output: Visit, embed: [job], call: (ctx, a) => visitService.assign(ctx, a.params.uuid, a.body) },

  { method: 'GET', path: '/templates', scope: 'templates:read', summary: 'List estimate templates', plural: 'templates', query: ListArgs, output: Template, call: (ctx, a) => templateService.list(ctx, a.query) },
  { method: 'GET', path: '/templates/:uuid', scope: 'templates:read', summary: 'Get an estimate template', output: Template, call: (ctx, a) => templateService.get(ctx, a.params.uuid) },
  { method: 'POST', path: '/templates', scope: 'templates:write', summary: 'Create an estimate template', body: TemplateCreateInput, output: Template, creates: true, call: (ctx, a) => templateService.create(ctx, a.body) },
  { method: 'PUT', path: '/templates/:uuid', scope: 'templates:write', summary: 'Update an estimate template', body: TemplateUpdateInput, output: Template, call: (ctx, a) => templateService.update(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/templates/:uuid', scope: 'templates:write', summary: 'Delete an estimate template', output: DeleteResult, call: (ctx, a) => templateService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/templates/:uuid/restore', scope: 'templates:write', summary: 'Restore a deleted estimate template', output: Template, call: (ctx, a) => templateService.restore(ctx, a.params.uuid) },

  // Before the /estimates/:uuid rows: 'preview' is not an estimate id.
  { method: 'POST', path: '/estimates/preview', scope: 'estimates:read', summary: 'Estimate totals without creating (dry run)', body: EstimatePreviewInput, output: EstimatePreview, call: (ctx, a) => estimateService.preview(ctx, a.body) },
  { method: 'GET', path: '/estimates', scope: 'estimates:read', summary: 'List estimates', plural: 'estimates', query: EstimateListArgs, output: Estimate, embed: [customer], call: (ctx, a) => estimateService.list(ctx, a.query, a.include) },
  { method: 'GET', path: '/estimates/:uuid', scope: 'estimates:read', summary: 'Get an estimate with customer, job, template and location', output: Estimate, embed: estimateEmbeds, call: (ctx, a) => estimateService.get(ctx, a.params.uuid) },
  { method: 'POST', path: '/estimates', scope: 'estimates:write', summary: 'Create an estimate from a template', body: EstimateCreateInput, output: Estimate, embed: estimateEmbeds, creates: true, call: (ctx, a) => estimateService.create(ctx, a.body) },
  { method: 'PUT', path: '/estimates/:uuid', scope: 'estimates:write', summary: 'Update an estimate (permitted fields only)', body: EstimateUpdateInput, output: Estimate, embed: estimateEmbeds, call: (ctx, a) => estimateService.update(ctx, a.params.uuid, a.body) },
  { method: 'GET', path: '/estimates/:uuid/pdf', scope: 'estimates:read', summary: 'The estimate as a PDF', output: DocumentFile, file: 'application/pdf', call: (ctx, a) => documentService.pdf(ctx, 'estimate', a.params.uuid) },
  { method: 'POST', path: '/estimates/:uuid/share_link', scope: 'estimates:write', summary: 'A link that opens the estimate for the customer: accept or decline (no key needed)', body: ShareLinkInput, output: ShareLink, call: (ctx, a) => shareService.create(ctx, 'estimate', a.params.uuid, a.body) },
  { method: 'DELETE', path: '/estimates/:uuid/share_link', scope: 'estimates:write', summary: "Revoke the estimate's open links", output: DeleteResult, call: (ctx, a) => shareService.revoke(ctx, 'estimate', a.params.uuid) },
  { method: 'POST', path: '/estimates/:uuid/send', scope: 'estimates:write', summary: 'Mail the estimate (PDF attached, share link in the body)', body: SendDocumentInput, output: DocumentEmail, creates: true, call: (ctx, a) => mailService.send(ctx, 'estimate', a.params.uuid, a.body) },
  { method: 'GET', path: '/estimates/:uuid/emails', scope: 'estimates:read', summary: 'Messages that sent the estimate, newest first', plural: 'emails', query: ListArgs, output: DocumentEmail, call: (ctx, a) => mailService.list(ctx, 'estimate', a.params.uuid, a.query) },
  { method: 'POST', path: '/estimates/:uuid/convert_to_job', scope: ['estimates:write', 'jobs:write'], summary: 'Create a job from an estimate (a Pending estimate becomes Accepted)', body: ConvertEstimateInput, output: EstimateConversion, creates: true, call: (ctx, a) => conversionService.convertEstimateToJob(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/estimates/:uuid', scope: 'estimates:write', summary: 'Delete an estimate', output: DeleteResult, call: (ctx, a) => estimateService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/estimates/:uuid/restore', scope: 'estimates:write', summary: 'Restore a deleted estimate (its customer must be live)', output: Estimate, embed: estimateEmbeds, call: (ctx, a) => estimateService.restore(ctx, a.params.uuid) },

  // Imports (docs/import-export.md): the rows are written by a background task.
  { method: 'POST', path: '/imports', scope: 'imports:write', summary: "Import a CSV or NDJSON file of customers, locations, jobs, invoices or payments (multipart/form-data; needs the resource's write scope too)", output: Import, status: 202, multipart: { fields: IMPORT_MULTIPART_FIELDS }, call: async (ctx, a) => { const { input, upload } = await receiveImport(a.req!); return importService.create(ctx, input, upload); } },
  { method: 'GET', path: '/imports', scope: 'imports:read', summary: "The company's imports, newest first", plural: 'imports', exportable: false, query: ImportListArgs, output: Import, call: (ctx, a) => importService.list(ctx, a.query) },
  { method: 'GET', path: '/imports/:uuid', scope: 'imports:read', summary: 'An import: its status, progress and counts', output: Import, call: (ctx, a) => importService.get(ctx, a.params.uuid) },
  { method: 'GET', path: '/imports/:uuid/errors', scope: 'imports:read', summary: 'The failed rows: JSON, or a CSV to fix and import again', query: ImportErrorsArgs, output: ImportErrorList, stream: { json: 'application/json', csv: 'text/csv; charset=utf-8' }, call: (ctx, a) => importService.errors(ctx, a.params.uuid, a.query.format ?? 'json') },
  { method: 'POST', path: '/imports/:uuid/cancel', scope: 'imports:write', summary: 'Stop a queued or running import (dry_run and all_or_nothing then write nothing)', output: Import, call: (ctx, a) => importService.cancel(ctx, a.params.uuid) },

  // The change feed (docs/events.md); /events/head before /events/:id.
  { method: 'GET', path: '/events', scope: FEED_SCOPE, operationId: 'listEvents', summary: 'The change feed: events after a cursor, oldest first, by commit', query: EventFeedArgs, output: EventFeed, page: true, call: (ctx, a) => eventService.feed(ctx, a.query) },
  { method: 'GET', path: '/events/head', scope: FEED_SCOPE, operationId: 'getEventsHead', summary: 'The cursor after the newest event (follow the feed from now)', output: EventsHead, call: (ctx) => eventService.head(ctx) },
  { method: 'GET', path: '/events/:event_id', scope: FEED_SCOPE, summary: 'Get an event', output: Event, call: (ctx, a) => eventService.get(ctx, a.params.event_id) },
  { method: 'GET', path: '/event_types', scope: FEED_SCOPE, operationId: 'listEventTypes', summary: 'The event types, each with a description', output: EventTypeCatalogue, call: async () => eventService.types() },

  // Webhooks (docs/webhooks.md): the create and rotate answers carry the secret, shown only then.
  { method: 'GET', path: '/webhook_endpoints', scope: 'webhooks:read', summary: 'List webhook endpoints', plural: 'webhook_endpoints', exportable: false, query: WebhookPageArgs, output: WebhookEndpoint, call: (ctx, a) => webhookService.list(ctx, a.query) },
  { method: 'GET', path: '/webhook_endpoints/:uuid', scope: 'webhooks:read', summary: 'Get a webhook endpoint', output: WebhookEndpoint, call: (ctx, a) => webhookService.get(ctx, a.params.uuid) },
  { method: 'POST', path: '/webhook_endpoints', scope: 'webhooks:write', summary: 'Create a webhook endpoint (the answer shows its secret, once)', body: WebhookEndpointCreateInput, output: WebhookEndpointWithSecret, creates: true, call: async (ctx, a) => withSecret(await webhookService.create(ctx, a.body)) },
  { method: 'PUT', path: '/webhook_endpoints/:uuid', scope: 'webhooks:write', summary: 'Update a webhook endpoint (status active enables it again)', body: WebhookEndpointUpdateInput, output: WebhookEndpoint, call: (ctx, a) => webhookService.update(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/webhook_endpoints/:uuid', scope: 'webhooks:write', summary: 'Delete a webhook endpoint and its deliveries', output: DeleteResult, call: (ctx, a) => webhookService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/webhook_endpoints/:uuid/rotate_secret', scope: 'webhooks:write', summary: 'A new secret (shown once); the old one keeps signing for 24 hours', output: WebhookEndpointWithSecret, call: async (ctx, a) => withSecret(await webhookService.rotateSecret(ctx, a.params.uuid)) },
  { method: 'POST', path: '/webhook_endpoints/:uuid/test', scope: 'webhooks:write', summary: 'Send a webhook.test event to the endpoint', output: WebhookDeliveryDetail, call: (ctx, a) => webhookService.sendTest(ctx, a.params.uuid) },
  { method: 'POST', path: '/webhook_endpoints/:uuid/replay', scope: 'webhooks:write', summary: 'Queue again the deliveries created in [from, to), or the failed ones', body: WebhookReplayInput, output: WebhookReplayResult, call: (ctx, a) => webhookService.replay(ctx, a.params.uuid, a.body) },
  { method: 'GET', path: '/webhook_endpoints/:uuid/deliveries', scope: 'webhooks:read', summary: "An endpoint's deliveries, newest first", plural: 'deliveries', query: WebhookDeliveryListArgs, output: WebhookDelivery, call: (ctx, a) => webhookService.deliveries(ctx, a.params.uuid, a.query) },
  { method: 'GET', path: '/webhook_deliveries/:uuid', scope: 'webhooks:read', summary: 'Get a webhook delivery with its attempt log', output: WebhookDeliveryDetail, call: (ctx, a) => webhookService.delivery(ctx, a.params.uuid) },
  { method: 'POST', path: '/webhook_deliveries/:uuid/retry', scope: 'webhooks:write', summary: 'Attempt the delivery again now, whatever its status', output: WebhookDeliveryDetail, call: (ctx, a) => webhookService.retry(ctx, a.params.uuid) },

  { method: 'GET', path: '/numbering', scope: 'numbering:read', summary: 'Invoice and estimate numbering settings', output: NumberingSettings, call: (ctx) => numberingService.get(ctx) },
  // The spec's data.message, plus the new settings so that clients need no second call.
  { method: 'PUT', path: '/numbering', scope: 'numbering:write', summary: 'Update numbering settings (add-on custom_numbering)', body: NumberingUpdateInput, output: NumberingUpdateResult, addon: 'custom_numbering', lock: (ctx) => numberingService.lock(ctx), call: async (ctx, a) => Object.assign(new NumberingUpdateResult(), await numberingService.update(ctx, a.body), { message: 'Numbering settings updated' }) },
];

// Each list's export (docs/import-export.md) and the lookups and upserts by external id
// (docs/custom-fields.md) come first: `/customers/export` and `/customers/by_external_id` are not ids.
export const routes: RouteDef[] = [...externalIdRoutes(table), ...exportRoutes(table), ...table];
