import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { RequestContext } from '../../data/context';
import { canonicalJson } from '../../data/idempotency';
import { DocumentKind, DocumentView, loadDocumentView } from './document.view';
import { documentSettings, linkBase } from './document.settings';
import { fontTag, renderPdf } from './pdf.render';

// PDFs of invoices and estimates (docs/documents.md): with an API key, or through a signed link
// valid one hour (GraphQL pdfUrl) that needs none.

/** A file answer of a REST route: its bytes are made only when the client lacks them (ETag). */
export interface FileResult {
  contentType: string;
  filename: string;
  etag: string;
  body(): Promise<Buffer>;
}

// Part of the ETag: a change to the layout code must change it too.
const LAYOUT_VERSION = '3';

/** The PDF of a view. Rendering is deterministic, so the view's hash names the bytes (a strong ETag). */
export function pdfFile(view: DocumentView): FileResult {
  const hash = createHash('sha256').update(`${LAYOUT_VERSION}\n${fontTag()}\n${canonicalJson(view)}`).digest('base64url');
  return { contentType: 'application/pdf', filename: `${view.number}.pdf`, etag: `"${hash.slice(0, 32)}"`, body: () => renderPdf(view) };
}

export const PDF_LINK_TTL_SECONDS = 3600;
export const DOCUMENT_FILES_PATH = '/api/v1/document-files';

function sign(kind: DocumentKind, companyUuid: string, uuid: string, expires: number): string {
  return createHmac('sha256', documentSettings().secret).update(`pdf\n${kind}\n${companyUuid}\n${uuid}\n${expires}`).digest('base64url');
}

/** True when the link's signature is genuine and it has not expired (compared in constant time). */
export function verifyPdfLink(kind: DocumentKind, companyUuid: string, uuid: string, expires: unknown, sig: unknown, now = Date.now()): boolean {
  if (typeof expires !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(expires)) return false;
  if (Number(expires) * 1000 <= now) return false;
  const want = Buffer.from(sign(kind, companyUuid, uuid, Number(expires)));
  const got = Buffer.from(sig);
  return got.length === want.length && timingSafeEqual(got, want);
}

export const documentService = {
  async pdf(ctx: RequestContext, kind: DocumentKind, uuid: string): Promise<FileResult> {
    return pdfFile(await loadDocumentView(ctx, kind, uuid));
  },

  /** A link to the PDF valid one hour, for a record the caller has already read. */
  pdfUrl(ctx: RequestContext, kind: DocumentKind, uuid: string, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + PDF_LINK_TTL_SECONDS;
    return `${linkBase(ctx.baseUrl)}${DOCUMENT_FILES_PATH}/${kind}s/${ctx.companyId}/${uuid}.pdf?expires=${expires}&sig=${sign(kind, ctx.companyId, uuid, expires)}`;
  },
};
