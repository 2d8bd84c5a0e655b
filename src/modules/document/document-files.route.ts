import { Request, Response, Router } from 'express';
import type { Orm } from '../../db/orm';
import { systemContext } from '../../data/system-context';
import { AppError } from '../../errors/app-error';
import { isUuid } from '../../domain/values';
import type { DocumentKind } from './document.view';
import { loadDocumentView } from './document.view';
import { FileResult, pdfFile, verifyPdfLink } from './document.service';

/** Sends a file answer: 304 when If-None-Match names its ETag, else its bytes. */
export async function sendFile(req: Request, res: Response, file: FileResult): Promise<void> {
  res.setHeader('ETag', file.etag);
  res.setHeader('Cache-Control', 'private, no-cache');
  const match = req.header('if-none-match');
  if (match && match.split(',').some((t) => t.trim() === file.etag || t.trim() === '*')) {
    res.status(304).end();
    return;
  }
  const body = await file.body();
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Content-Disposition', `inline; filename="${file.filename.replace(/["\\\r\n]/g, '_')}"`);
  res.setHeader('Content-Length', String(body.length));
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The path segment of each kind's signed PDF links (`/invoices/<company uuid>/<uuid>.pdf`); the OpenAPI document is made from it too. */
export const DOCUMENT_FILE_KINDS: Record<string, DocumentKind> = { invoices: 'invoice', estimates: 'estimate' };

/**
 * PDFs behind signed links (GraphQL pdfUrl): no API key, the signature is the credential. A
 * tampered, expired or unknown link, or a deleted document, is a plain 404.
 */
export function documentFilesRouter(orm: Orm): Router {
  const router = Router();
  router.get('/:kinds/:company/:file', async (req, res, next) => {
    try {
      const kind = Object.hasOwn(DOCUMENT_FILE_KINDS, req.params.kinds) ? DOCUMENT_FILE_KINDS[req.params.kinds] : undefined;
      const uuid = req.params.file.replace(/\.pdf$/, '');
      const { company } = req.params;
      if (!kind || !isUuid(company) || !isUuid(uuid) || !verifyPdfLink(kind, company, uuid, req.query.expires, req.query.sig)) throw AppError.notFound('Document');
      await sendFile(req, res, pdfFile(await loadDocumentView(systemContext(orm.em.fork(), company, 'pdf-link'), kind, uuid)));
    } catch (err) {
      next(err);
    }
  });
  return router;
}
