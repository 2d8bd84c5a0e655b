import { companyIs, ofCompany } from '../../data/tenant';
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../data/context';
import { findActive } from '../../data/crud';
import { pageOf, pageWindow, ListArgs, Page } from '../../schema/pagination';
import { AppError } from '../../errors/app-error';
import { Customer } from '../customer/customer.entity';
import { Estimate } from '../estimate/estimate.entity';
import { Invoice, InvoiceStatus } from '../invoice/invoice.entity';
import { InvoiceUpdateInput } from '../invoice/invoice.inputs';
import { invoiceService } from '../invoice/invoice.service';
import { loadDocumentView, DocumentKind } from './document.view';
import { pdfFile } from './document.service';
import { deliver } from './mail.transport';
import { DocumentEmail, EmailStatus, SendDocumentInput } from './mail.inputs';
import { newShareLink } from './share.service';
import { documentSettings } from './document.settings';

// Sending a document by mail (docs/documents.md), within the request: the PDF attached, a new
// share link in the body; the outcome, sent or failed with the error, is kept in document_emails.

const LABEL = { invoice: 'Invoice', estimate: 'Estimate' } as const;

type Row = { uuid: string; to_address: string; cc: string | null; subject: string; status: EmailStatus; sent_at: Date | null; error: string | null };
const toEmail = (r: Row) =>
  Object.assign(new DocumentEmail(), { uuid: r.uuid, to: r.to_address, cc: r.cc ? r.cc.split(',') : null, subject: r.subject, status: r.status, sentAt: r.sent_at ? new Date(r.sent_at) : null, error: r.error });

function exec<T>(ctx: RequestContext, sql: string, params: unknown[]): Promise<T[]> {
  return ctx.em.getConnection().execute(sql, params, 'all', ctx.em.getTransactionContext()) as Promise<T[]>;
}

async function documentOf(ctx: RequestContext, kind: DocumentKind, uuid: string): Promise<Invoice | Estimate> {
  return kind === 'invoice' ? findActive(ctx, Invoice, uuid, 'Invoice') : findActive(ctx, Estimate, uuid, 'Estimate');
}

export const mailService = {
  async send(ctx: RequestContext, kind: DocumentKind, uuid: string, input: SendDocumentInput | null | undefined): Promise<DocumentEmail> {
    const doc = await documentOf(ctx, kind, uuid);
    const customer = await ctx.em.findOneOrFail(Customer, ofCompany(ctx, { uuid: doc.customer.uuid }), { filters: false });
    const to = input?.to ?? customer.email;
    if (!to) throw AppError.field('to', "is required: the customer has no email address");
    // Sending issues a draft invoice: it becomes Pending (every rule of an invoice update) before
    // its PDF is made, so the customer never gets a "Draft"; a failed delivery leaves it Pending.
    if (doc instanceof Invoice && doc.storedStatus === InvoiceStatus.DRAFT) {
      await invoiceService.update(ctx, doc.uuid, Object.assign(new InvoiceUpdateInput(), { status: InvoiceStatus.PENDING }));
    }
    const view = await loadDocumentView(ctx, kind, doc.uuid);
    const pdf = await pdfFile(view).body();
    const link = await newShareLink(ctx, kind, doc.uuid);
    const subject = input?.subject ?? `${LABEL[kind]} ${view.number} from ${view.company.name}`;
    const greeting = input?.message ?? `Hello ${customer.firstName},\n\nplease find ${kind === 'invoice' ? 'your invoice' : 'our estimate'} ${view.number} attached.`;
    const text = `${greeting}\n\nView it online${kind === 'estimate' ? ' (and accept or decline it)' : ''}: ${link.url}\nThe link works until ${link.expiresAt.toISOString().slice(0, 10)}.\n\n${view.company.name}\n`;
    const emailUuid = randomUUID();
    let status = EmailStatus.SENT;
    let error: string | null = null;
    let messageId: string | null = null;
    try {
      messageId = await deliver(
        {
          from: { name: view.company.name, address: documentSettings().mailFrom },
          replyTo: view.company.email,
          to,
          cc: input?.cc?.length ? input.cc : undefined,
          subject,
          text,
          attachments: [{ filename: `${view.number}.pdf`, content: pdf, contentType: 'application/pdf' }],
        },
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${emailUuid}`,
      );
    } catch (err) {
      status = EmailStatus.FAILED;
      error = err instanceof Error ? err.message : String(err);
    }
    const [row] = await exec<Row>(
      ctx,
      `insert into document_emails (uuid, company_uuid, document_kind, document_uuid, to_address, cc, subject, status, error, message_id, sent_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, case when ? = 'sent' then now() end) returning *`,
      [emailUuid, ctx.companyId, kind, doc.uuid, to, input?.cc?.length ? input.cc.join(',') : null, subject, status, error, messageId, status],
    );
    return toEmail(row);
  },

  /** The document's mail history, newest first. */
  async list(ctx: RequestContext, kind: DocumentKind, uuid: string, args: ListArgs): Promise<Page<DocumentEmail>> {
    const doc = await documentOf(ctx, kind, uuid);
    const { page, limit, offset } = pageWindow(args);
    const rows = await exec<Row & { total: string }>(
      ctx,
      `select *, count(*) over () as total from document_emails where ${companyIs(ctx).sql} and document_kind = ? and document_uuid = ?
       order by created_at desc, uuid desc limit ? offset ?`,
      [...companyIs(ctx).params, kind, doc.uuid, limit, offset],
    );
    const total = rows.length ? Number(rows[0].total) : offset > 0 ? await countOf(ctx, kind, doc.uuid) : 0;
    return pageOf(rows.map(toEmail), total, page, limit);
  },
};

async function countOf(ctx: RequestContext, kind: DocumentKind, uuid: string): Promise<number> {
  const [r] = await exec<{ n: string }>(ctx, `select count(*) as n from document_emails where ${companyIs(ctx).sql} and document_kind = ? and document_uuid = ?`, [...companyIs(ctx).params, kind, uuid]);
  return Number(r.n);
}
