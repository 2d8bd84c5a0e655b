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
import { LocationCreateInput, LocationUpdateInput } from '../modules/location/location.inputs';
import { locationService } from '../modules/location/location.service';
import { Payment } from '../modules/payment/payment.entity';
import { PaymentCreateInput, PaymentListArgs, PaymentUpdateInput } from '../modules/payment/payment.inputs';
import { paymentService } from '../modules/payment/payment.service';
import { User } from '../modules/user/user.entity';
import { userService } from '../modules/user/user.service';
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
import { eventService } from '../modules/event/event.service';
import { Event, EventFeed, EventsHead, EventTypeCatalogue } from '../modules/event/event.types';
import { WebhookDeliveryListArgs, WebhookPageArgs, WebhookEndpointCreateInput, WebhookEndpointUpdateInput, WebhookReplayInput } from '../modules/webhook/webhook.inputs';
import { webhookService } from '../modules/webhook/webhook.service';
import { WebhookDelivery, WebhookDeliveryDetail, WebhookEndpoint, WebhookEndpointWithSecret, WebhookReplayResult } from '../modules/webhook/webhook.types';
import type { Embed, RouteDef } from './route';

// Summaries of related records embedded in REST responses (docs/conventions.md): fixed keys, each
// declared once; lists show only their first summary.
const customer: Embed = { key: 'customer', id: (r: { customerUuid: string }) => r.customerUuid, entity: Customer, fields: ['uuid', 'first_name', 'last_name'] };
const location: Embed = { key: 'location', id: (r: { locationUuid: string | null }) => r.locationUuid, entity: Location, fields: ['uuid', 'name', 'city', 'state'] };
const job: Embed = { key: 'job', id: (r: { jobUuid: string | null }) => r.jobUuid, entity: Job, fields: ['uuid', 'job_number', 'title', 'status'] };
const invoice: Embed = { key: 'invoice', id: (p: Payment) => p.invoiceUuid, entity: Invoice, fields: ['uuid', 'invoice_number'] };
const user = (key: string, id: (r: any) => string | null): Embed => ({ key, id, entity: User, fields: ['id', 'first_name', 'last_name'] });

const jobEmbeds = [customer, location, user('assigned_user', (j: Job) => j.assignedToUserId)];
const photoUser = user('user', (p: JobPhoto) => p.userId);
const estimateEmbeds = [customer, job, { key: 'template', id: (e: Estimate) => e.templateUuid, entity: Template, fields: ['uuid', 'name', 'pricing_type'] }, location];
const invoiceEmbeds = [customer, job, { key: 'estimate', id: (i: Invoice) => i.estimateUuid, entity: Estimate, fields: ['uuid', 'estimate_number', 'status', 'total_amount'] }, location];
const paymentEmbeds = [invoice, { key: 'customer', id: (p: Payment) => p.customerUuid, entity: Customer, fields: ['uuid', 'first_name', 'last_name', 'email', 'phone'] }];

const withSecret = (r: { endpoint: WebhookEndpoint; secret: string }) => Object.assign(new WebhookEndpointWithSecret(), r.endpoint, { secret: r.secret });

// The REST surface: one row per route. Rows call the same services as the GraphQL resolvers.
export const routes: RouteDef[] = [
  { method: 'GET', path: '/companies/me', summary: 'The company of the API key', output: Company, call: (ctx) => companyService.me(ctx) },
  { method: 'PUT', path: '/companies/me/settings', summary: "Change the company's settings (prevent_double_booking)", body: CompanySettingsInput, output: Company, call: (ctx, a) => companyService.updateSettings(ctx, a.body) },

  { method: 'GET', path: '/users', summary: 'List users', plural: 'users', query: ListArgs, output: User, call: (ctx, a) => userService.list(ctx, a.query) },
  { method: 'GET', path: '/users/:id', summary: 'Get a user', output: User, call: (ctx, a) => userService.get(ctx, a.params.id) },

  { method: 'GET', path: '/customers', summary: 'List customers', plural: 'customers', query: CustomerListArgs, output: Customer, call: (ctx, a) => customerService.list(ctx, a.query) },
  { method: 'GET', path: '/customers/:uuid', summary: 'Get a customer', output: Customer, call: (ctx, a) => customerService.read(ctx, a.params.uuid) },
  { method: 'POST', path: '/customers', summary: 'Create a customer', body: CustomerCreateInput, output: Customer, creates: true, call: (ctx, a) => customerService.create(ctx, a.body) },
  { method: 'PUT', path: '/customers/:uuid', summary: 'Update a customer', body: CustomerUpdateInput, output: Customer, call: (ctx, a) => customerService.update(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/customers/:uuid', summary: 'Delete a customer', output: DeleteResult, call: (ctx, a) => customerService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/customers/:uuid/restore', summary: 'Restore a deleted customer', output: Customer, call: (ctx, a) => customerService.restore(ctx, a.params.uuid) },

  { method: 'GET', path: '/locations', summary: 'List locations', plural: 'locations', query: ListArgs, output: Location, call: (ctx, a) => locationService.list(ctx, a.query) },
  { method: 'GET', path: '/locations/:uuid', summary: 'Get a location', output: Location, call: (ctx, a) => locationService.get(ctx, a.params.uuid) },
  { method: 'POST', path: '/locations', summary: 'Create a location', body: LocationCreateInput, output: Location, creates: true, call: (ctx, a) => locationService.create(ctx, a.body) },
  { method: 'PUT', path: '/locations/:uuid', summary: 'Update a location', body: LocationUpdateInput, output: Location, call: (ctx, a) => locationService.update(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/locations/:uuid', summary: 'Delete a location (not the primary one)', output: DeleteResult, call: (ctx, a) => locationService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/locations/:uuid/restore', summary: 'Restore a deleted location (never primary)', output: Location, call: (ctx, a) => locationService.restore(ctx, a.params.uuid) },

  { method: 'GET', path: '/invoices', summary: 'List invoices', plural: 'invoices', query: InvoiceListArgs, output: Invoice, embed: [customer], call: (ctx, a) => invoiceService.list(ctx, a.query, a.include) },
  { method: 'GET', path: '/invoices/:uuid', summary: 'Get an invoice with customer, job, estimate and location', output: Invoice, embed: invoiceEmbeds, call: (ctx, a) => invoiceService.get(ctx, a.params.uuid) },
  { method: 'GET', path: '/invoices/:uuid/pdf', summary: 'The invoice as a PDF', output: DocumentFile, file: 'application/pdf', call: (ctx, a) => documentService.pdf(ctx, 'invoice', a.params.uuid) },
  { method: 'POST', path: '/invoices/:uuid/share_link', summary: 'A link that opens the invoice for the customer (no key needed)', body: ShareLinkInput, output: ShareLink, call: (ctx, a) => shareService.create(ctx, 'invoice', a.params.uuid, a.body) },
  { method: 'DELETE', path: '/invoices/:uuid/share_link', summary: "Revoke the invoice's open links", output: DeleteResult, call: (ctx, a) => shareService.revoke(ctx, 'invoice', a.params.uuid) },
  { method: 'POST', path: '/invoices/:uuid/send', summary: 'Mail the invoice (PDF attached, share link in the body); a Draft becomes Pending', body: SendDocumentInput, output: DocumentEmail, creates: true, call: (ctx, a) => mailService.send(ctx, 'invoice', a.params.uuid, a.body) },
  { method: 'GET', path: '/invoices/:uuid/emails', summary: 'Messages that sent the invoice, newest first', plural: 'emails', query: ListArgs, output: DocumentEmail, call: (ctx, a) => mailService.list(ctx, 'invoice', a.params.uuid, a.query) },
  { method: 'POST', path: '/invoices/preview', summary: 'Invoice totals without creating (dry run)', body: InvoicePreviewInput, output: InvoicePreview, call: (ctx, a) => invoiceService.preview(ctx, a.body) },
  { method: 'POST', path: '/invoices', summary: 'Create an invoice from a job', body: InvoiceCreateInput, output: Invoice, embed: invoiceEmbeds, creates: true, call: (ctx, a) => invoiceService.create(ctx, a.body) },
  { method: 'PUT', path: '/invoices/:uuid', summary: 'Update an invoice (amounts recomputed)', body: InvoiceUpdateInput, output: Invoice, embed: invoiceEmbeds, call: (ctx, a) => invoiceService.update(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/invoices/:uuid', summary: 'Delete an invoice (not one with Completed payments)', output: DeleteResult, call: (ctx, a) => invoiceService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/invoices/:uuid/restore', summary: 'Restore a deleted invoice (its customer must be live)', output: Invoice, embed: invoiceEmbeds, call: (ctx, a) => invoiceService.restore(ctx, a.params.uuid) },

  { method: 'GET', path: '/payments', summary: 'List payments', plural: 'payments', query: PaymentListArgs, output: Payment, embed: [invoice], call: (ctx, a) => paymentService.list(ctx, a.query, a.include) },
  { method: 'GET', path: '/payments/:uuid', summary: 'Get a payment with invoice and customer', output: Payment, embed: paymentEmbeds, call: (ctx, a) => paymentService.get(ctx, a.params.uuid) },
  { method: 'POST', path: '/payments', summary: 'Record a payment on an invoice', body: PaymentCreateInput, output: Payment, embed: paymentEmbeds, creates: true, call: (ctx, a) => paymentService.create(ctx, a.body) },
  { method: 'PUT', path: '/payments/:uuid', summary: 'Update a payment (the invoice balance follows)', body: PaymentUpdateInput, output: Payment, embed: paymentEmbeds, call: (ctx, a) => paymentService.update(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/payments/:uuid', summary: 'Delete a payment (the invoice balance follows)', output: DeleteResult, call: (ctx, a) => paymentService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/payments/:uuid/restore', summary: 'Restore a deleted payment (it counts on its invoice again; never overpays)', output: Payment, embed: paymentEmbeds, call: (ctx, a) => paymentService.restore(ctx, a.params.uuid) },

  { method: 'GET', path: '/jobs', summary: 'List jobs', plural: 'jobs', query: JobListArgs, output: Job, embed: [customer], call: (ctx, a) => jobService.list(ctx, a.query, a.include) },
  { method: 'GET', path: '/jobs/:uuid', summary: 'Get a job with customer, location and assigned user', output: Job, embed: jobEmbeds, call: (ctx, a) => jobService.get(ctx, a.params.uuid) },
  { method: 'POST', path: '/jobs', summary: 'Create a job', body: JobCreateInput, output: Job, embed: jobEmbeds, creates: true, call: (ctx, a) => jobService.create(ctx, a.body) },
  { method: 'PUT', path: '/jobs/:uuid', summary: 'Update a job', body: JobUpdateInput, output: Job, embed: jobEmbeds, call: (ctx, a) => jobService.update(ctx, a.params.uuid, a.body) },
  { method: 'POST', path: '/jobs/:uuid/invoice', summary: "Invoice a job: its Accepted estimate's lines, else one line of the job's amount", body: InvoiceJobInput, output: Invoice, embed: invoiceEmbeds, creates: true, call: (ctx, a) => conversionService.invoiceJob(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/jobs/:uuid', summary: 'Delete a job', output: DeleteResult, call: (ctx, a) => jobService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/jobs/:uuid/restore', summary: 'Restore a deleted job (its customer must be live; it keeps its number)', output: Job, embed: jobEmbeds, call: (ctx, a) => jobService.restore(ctx, a.params.uuid) },

  { method: 'GET', path: '/jobs/:job_uuid/photos', summary: "List a job's photos", plural: 'photos', query: PhotoListArgs, output: JobPhoto, embed: [photoUser], call: (ctx, a) => jobPhotoService.list(ctx, a.params.job_uuid, a.query, a.include) },
  { method: 'GET', path: '/jobs/:job_uuid/photos/:photo_uuid', summary: 'Get a job photo', output: JobPhoto, embed: [photoUser], call: (ctx, a) => jobPhotoService.get(ctx, a.params.job_uuid, a.params.photo_uuid) },
  { method: 'POST', path: '/jobs/:job_uuid/photos', summary: 'Upload job photos (multipart/form-data; needs the job_photos add-on)', output: PhotoUploadResult, embed: [photoUser], embedIn: 'photos', addon: 'job_photos', multipart: { fields: PHOTO_MULTIPART_FIELDS }, call: (ctx, a) => jobPhotoService.upload(ctx, a.params.job_uuid, restUploadSource(a.req)) },
  { method: 'DELETE', path: '/jobs/:job_uuid/photos/:photo_uuid', summary: 'Delete a job photo (the file stays in storage)', output: DeleteResult, call: (ctx, a) => jobPhotoService.remove(ctx, a.params.job_uuid, a.params.photo_uuid) },
  { method: 'POST', path: '/jobs/:job_uuid/photos/:photo_uuid/restore', summary: 'Restore a deleted job photo', output: JobPhoto, embed: [photoUser], call: (ctx, a) => jobPhotoService.restore(ctx, a.params.job_uuid, a.params.photo_uuid) },

  { method: 'GET', path: '/jobs/:job_uuid/visits', summary: "List a job's visits (by start, unscheduled last)", plural: 'visits', query: VisitListArgs, output: Visit, call: (ctx, a) => visitService.listForJob(ctx, a.params.job_uuid, a.query, a.include) },
  { method: 'POST', path: '/jobs/:job_uuid/visits', summary: 'Create a visit of a job', body: VisitCreateInput, output: Visit, embed: [job], creates: true, call: (ctx, a) => visitService.create(ctx, a.params.job_uuid, a.body) },
  { method: 'GET', path: '/visits', summary: 'The calendar: visits overlapping [from, to), by start, unscheduled last', plural: 'visits', query: VisitListArgs, output: Visit, call: (ctx, a) => visitService.list(ctx, a.query, a.include) },
  { method: 'GET', path: '/visits/:uuid', summary: 'Get a visit', output: Visit, embed: [job], call: (ctx, a) => visitService.get(ctx, a.params.uuid) },
  { method: 'PUT', path: '/visits/:uuid', summary: 'Update a visit', body: VisitUpdateInput, output: Visit, embed: [job], call: (ctx, a) => visitService.update(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/visits/:uuid', summary: 'Delete a visit', output: DeleteResult, call: (ctx, a) => visitService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/visits/:uuid/restore', summary: 'Restore a deleted visit (its job must be live; its crew is booked again)', output: Visit, embed: [job], call: (ctx, a) => visitService.restore(ctx, a.params.uuid) },
  { method: 'POST', path: '/visits/:uuid/complete', summary: 'Complete a visit (not a Cancelled one)', body: VisitCompleteInput, output: Visit, embed: [job], call: (ctx, a) => visitService.complete(ctx, a.params.uuid, a.body) },
  { method: 'POST', path: '/visits/:uuid/assign', summary: 'Assign users to a visit (replace, add or remove); 409 SCHEDULE_CONFLICT on double booking', body: VisitAssignInput, output: Visit, embed: [job], call: (ctx, a) => visitService.assign(ctx, a.params.uuid, a.body) },

  { method: 'GET', path: '/templates', summary: 'List estimate templates', plural: 'templates', query: ListArgs, output: Template, call: (ctx, a) => templateService.list(ctx, a.query) },
  { method: 'GET', path: '/templates/:uuid', summary: 'Get an estimate template', output: Template, call: (ctx, a) => templateService.get(ctx, a.params.uuid) },
  { method: 'POST', path: '/templates', summary: 'Create an estimate template', body: TemplateCreateInput, output: Template, creates: true, call: (ctx, a) => templateService.create(ctx, a.body) },
  { method: 'PUT', path: '/templates/:uuid', summary: 'Update an estimate template', body: TemplateUpdateInput, output: Template, call: (ctx, a) => templateService.update(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/templates/:uuid', summary: 'Delete an estimate template', output: DeleteResult, call: (ctx, a) => templateService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/templates/:uuid/restore', summary: 'Restore a deleted estimate template', output: Template, call: (ctx, a) => templateService.restore(ctx, a.params.uuid) },

  // Before the /estimates/:uuid rows: 'preview' is not an estimate id.
  { method: 'POST', path: '/estimates/preview', summary: 'Estimate totals without creating (dry run)', body: EstimatePreviewInput, output: EstimatePreview, call: (ctx, a) => estimateService.preview(ctx, a.body) },
  { method: 'GET', path: '/estimates', summary: 'List estimates', plural: 'estimates', query: EstimateListArgs, output: Estimate, embed: [customer], call: (ctx, a) => estimateService.list(ctx, a.query, a.include) },
  { method: 'GET', path: '/estimates/:uuid', summary: 'Get an estimate with customer, job, template and location', output: Estimate, embed: estimateEmbeds, call: (ctx, a) => estimateService.get(ctx, a.params.uuid) },
  { method: 'POST', path: '/estimates', summary: 'Create an estimate from a template', body: EstimateCreateInput, output: Estimate, embed: estimateEmbeds, creates: true, call: (ctx, a) => estimateService.create(ctx, a.body) },
  { method: 'PUT', path: '/estimates/:uuid', summary: 'Update an estimate (permitted fields only)', body: EstimateUpdateInput, output: Estimate, embed: estimateEmbeds, call: (ctx, a) => estimateService.update(ctx, a.params.uuid, a.body) },
  { method: 'GET', path: '/estimates/:uuid/pdf', summary: 'The estimate as a PDF', output: DocumentFile, file: 'application/pdf', call: (ctx, a) => documentService.pdf(ctx, 'estimate', a.params.uuid) },
  { method: 'POST', path: '/estimates/:uuid/share_link', summary: 'A link that opens the estimate for the customer: accept or decline (no key needed)', body: ShareLinkInput, output: ShareLink, call: (ctx, a) => shareService.create(ctx, 'estimate', a.params.uuid, a.body) },
  { method: 'DELETE', path: '/estimates/:uuid/share_link', summary: "Revoke the estimate's open links", output: DeleteResult, call: (ctx, a) => shareService.revoke(ctx, 'estimate', a.params.uuid) },
  { method: 'POST', path: '/estimates/:uuid/send', summary: 'Mail the estimate (PDF attached, share link in the body)', body: SendDocumentInput, output: DocumentEmail, creates: true, call: (ctx, a) => mailService.send(ctx, 'estimate', a.params.uuid, a.body) },
  { method: 'GET', path: '/estimates/:uuid/emails', summary: 'Messages that sent the estimate, newest first', plural: 'emails', query: ListArgs, output: DocumentEmail, call: (ctx, a) => mailService.list(ctx, 'estimate', a.params.uuid, a.query) },
  { method: 'POST', path: '/estimates/:uuid/convert_to_job', summary: 'Create a job from an estimate (a Pending estimate becomes Accepted)', body: ConvertEstimateInput, output: EstimateConversion, creates: true, call: (ctx, a) => conversionService.convertEstimateToJob(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/estimates/:uuid', summary: 'Delete an estimate', output: DeleteResult, call: (ctx, a) => estimateService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/estimates/:uuid/restore', summary: 'Restore a deleted estimate (its customer must be live)', output: Estimate, embed: estimateEmbeds, call: (ctx, a) => estimateService.restore(ctx, a.params.uuid) },

  // The change feed (docs/events.md); /events/head before /events/:id.
  { method: 'GET', path: '/events', operationId: 'listEvents', summary: 'The change feed: events after a cursor, oldest first, by commit', query: EventFeedArgs, output: EventFeed, page: true, call: (ctx, a) => eventService.feed(ctx, a.query) },
  { method: 'GET', path: '/events/head', operationId: 'getEventsHead', summary: 'The cursor after the newest event (follow the feed from now)', output: EventsHead, call: (ctx) => eventService.head(ctx) },
  { method: 'GET', path: '/events/:event_id', summary: 'Get an event', output: Event, call: (ctx, a) => eventService.get(ctx, a.params.event_id) },
  { method: 'GET', path: '/event_types', operationId: 'listEventTypes', summary: 'The event types, each with a description', output: EventTypeCatalogue, call: async () => eventService.types() },

  // Webhooks (docs/webhooks.md): the create and rotate answers carry the secret, shown only then.
  { method: 'GET', path: '/webhook_endpoints', summary: 'List webhook endpoints', plural: 'webhook_endpoints', query: WebhookPageArgs, output: WebhookEndpoint, call: (ctx, a) => webhookService.list(ctx, a.query) },
  { method: 'GET', path: '/webhook_endpoints/:uuid', summary: 'Get a webhook endpoint', output: WebhookEndpoint, call: (ctx, a) => webhookService.get(ctx, a.params.uuid) },
  { method: 'POST', path: '/webhook_endpoints', summary: 'Create a webhook endpoint (the answer shows its secret, once)', body: WebhookEndpointCreateInput, output: WebhookEndpointWithSecret, creates: true, call: async (ctx, a) => withSecret(await webhookService.create(ctx, a.body)) },
  { method: 'PUT', path: '/webhook_endpoints/:uuid', summary: 'Update a webhook endpoint (status active enables it again)', body: WebhookEndpointUpdateInput, output: WebhookEndpoint, call: (ctx, a) => webhookService.update(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/webhook_endpoints/:uuid', summary: 'Delete a webhook endpoint and its deliveries', output: DeleteResult, call: (ctx, a) => webhookService.remove(ctx, a.params.uuid) },
  { method: 'POST', path: '/webhook_endpoints/:uuid/rotate_secret', summary: 'A new secret (shown once); the old one keeps signing for 24 hours', output: WebhookEndpointWithSecret, call: async (ctx, a) => withSecret(await webhookService.rotateSecret(ctx, a.params.uuid)) },
  { method: 'POST', path: '/webhook_endpoints/:uuid/test', summary: 'Send a webhook.test event to the endpoint', output: WebhookDeliveryDetail, call: (ctx, a) => webhookService.sendTest(ctx, a.params.uuid) },
  { method: 'POST', path: '/webhook_endpoints/:uuid/replay', summary: 'Queue again the deliveries created in [from, to), or the failed ones', body: WebhookReplayInput, output: WebhookReplayResult, call: (ctx, a) => webhookService.replay(ctx, a.params.uuid, a.body) },
  { method: 'GET', path: '/webhook_endpoints/:uuid/deliveries', summary: "An endpoint's deliveries, newest first", plural: 'deliveries', query: WebhookDeliveryListArgs, output: WebhookDelivery, call: (ctx, a) => webhookService.deliveries(ctx, a.params.uuid, a.query) },
  { method: 'GET', path: '/webhook_deliveries/:uuid', summary: 'Get a webhook delivery with its attempt log', output: WebhookDeliveryDetail, call: (ctx, a) => webhookService.delivery(ctx, a.params.uuid) },
  { method: 'POST', path: '/webhook_deliveries/:uuid/retry', summary: 'Attempt the delivery again now, whatever its status', output: WebhookDeliveryDetail, call: (ctx, a) => webhookService.retry(ctx, a.params.uuid) },

  { method: 'GET', path: '/numbering', summary: 'Invoice and estimate numbering settings', output: NumberingSettings, call: (ctx) => numberingService.get(ctx) },
  // The spec's data.message, plus the new settings so that clients need no second call.
  { method: 'PUT', path: '/numbering', summary: 'Update numbering settings (add-on custom_numbering)', body: NumberingUpdateInput, output: NumberingUpdateResult, addon: 'custom_numbering', lock: (ctx) => numberingService.lock(ctx), call: async (ctx, a) => Object.assign(new NumberingUpdateResult(), await numberingService.update(ctx, a.body), { message: 'Numbering settings updated' }) },
];
