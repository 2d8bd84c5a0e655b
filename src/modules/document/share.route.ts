import { randomBytes } from 'node:crypto';
import express, { NextFunction, Request, Response, Router } from 'express';
import type { Orm } from '../../db/orm';
import { asAppError } from '../../errors/db-error';
import { statusOf } from '../../errors/to-http-error';
import { logger } from '../../logger';
import { loadDocumentView } from './document.view';
import { pdfFile } from './document.service';
import { sendFile } from './document-files.route';
import { acceptEstimate, declineEstimate } from './share.answer';
import { documentPage, messagePage, PageState } from './share.page';
import { PAGE_PATH, shareService } from './share.service';

// The customer page at /p/<token> (docs/documents.md): GET the page, GET …/pdf, POST …/accept and
// …/decline (form posts; success redirects back to the page with 303).

const TITLES: Record<number, string> = { 400: 'Please check the form', 404: 'Link not found', 409: 'Already answered', 410: 'This link has expired', 503: 'Busy' };

/** Headers of every answer of these pages: their own CSP (only this nonce's style; forms post here). */
function pageHeaders(res: Response): string {
  const nonce = randomBytes(16).toString('base64');
  res.setHeader('Content-Security-Policy', `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`);
  res.setHeader('Cache-Control', 'no-store');
  // The token is in the path: never sent on to another site.
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Robots-Tag', 'noindex');
  return nonce;
}

export function sharePageRouter(orm: Orm): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '32kb' });
  const base = (token: string) => `${PAGE_PATH}/${token}`;

  const show = async (req: Request, res: Response, token: string, state: Omit<PageState, 'base'>, status = 200) => {
    const em = orm.em.fork();
    const target = await shareService.resolve(em, token);
    const view = await loadDocumentView(em, target.companyUuid, target.kind, target.uuid);
    const nonce = pageHeaders(res);
    res.status(status).type('html').send(documentPage(view, nonce, { ...state, base: base(token) }));
  };

  router.get('/:token', async (req, res, next) => {
    const done = req.query.done;
    const notice = done === 'accepted' ? 'Thank you: the estimate is accepted.' : done === 'declined' ? 'The estimate was declined. Thank you for letting us know.' : undefined;
    await show(req, res, req.params.token, { notice }).catch(next);
  });

  router.get('/:token/pdf', async (req, res, next) => {
    try {
      const em = orm.em.fork();
      const target = await shareService.resolve(em, req.params.token);
      await sendFile(req, res, pdfFile(await loadDocumentView(em, target.companyUuid, target.kind, target.uuid)));
    } catch (err) {
      next(err);
    }
  });

  router.post('/:token/accept', form, async (req, res, next) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const { token } = req.params;
    try {
      const em = orm.em.fork();
      const target = await shareService.resolve(em, token);
      await acceptEstimate(em, target, { signerName: body.signer_name, tier: body.tier, ip: req.ip ?? null, userAgent: req.header('user-agent') ?? null });
      res.redirect(303, `${base(token)}?done=accepted`);
    } catch (err) {
      // A form error shows the page again with the message and what was typed.
      const app = asAppError(err);
      if (app?.code === 'VALIDATION_ERROR') return show(req, res, token, { error: app.message, signerName: String(body.signer_name ?? ''), tier: String(body.tier ?? '') }, 400).catch(next);
      next(err);
    }
  });

  router.post('/:token/decline', form, async (req, res, next) => {
    const { token } = req.params;
    try {
      const em = orm.em.fork();
      await declineEstimate(em, await shareService.resolve(em, token), (req.body as Record<string, unknown> | undefined)?.reason);
      res.redirect(303, `${base(token)}?done=declined`);
    } catch (err) {
      next(err);
    }
  });

  // Errors are pages too, with the status of the API's error code (404, 409, 410, …).
  router.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const app = asAppError(err);
    if (!app) logger.error({ err, requestId: req.requestId, path: req.path }, 'customer page failed');
    const status = app ? statusOf(app.code) : 500;
    const nonce = pageHeaders(res);
    res.status(status).type('html').send(messagePage(TITLES[status] ?? 'Something went wrong', app && status < 500 ? app.message : 'Please try again later.', nonce));
  });
  router.use((_req: Request, res: Response) => {
    res.status(404).type('html').send(messagePage(TITLES[404], 'This link does not open anything.', pageHeaders(res)));
  });
  return router;
}
