import { randomBytes } from 'node:crypto';
import express, { NextFunction, Request, Response, Router } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm';
import { AppError } from '../../errors/app-error';
import { asAppError } from '../../errors/db-error';
import { statusOf } from '../../errors/to-http-error';
import { logger } from '../../logger';
import { systemContext } from '../../data/system-context';
import { loadDocumentView } from './document.view';
import { pdfFile } from './document.service';
import { sendFile } from './document-files.route';
import { acceptEstimate, declineEstimate } from './share.answer';
import { documentPage, messagePage, PageState } from './share.page';
import { PAGE_PATH, ShareTarget, shareService } from './share.service';
import { linkBase } from './document.settings';
import { checkoutFromPage, payOffer } from '../online-payment/checkout';

// The customer page at /p/<token> (docs/documents.md): GET the page, GET …/pdf, POST …/accept and
// …/decline (form posts; success redirects back to the page with 303).

const CHECKOUT_ORIGIN = 'https://checkout.stripe.com';

/** The context a page reads its document in: the link's company, no key (the token is the credential). */
const pageContext = (em: EntityManager, target: ShareTarget) => systemContext(em, target.companyUuid, 'customer-page');

const TITLES: Record<number, string> = { 400: 'Please check the form', 404: 'Link not found', 409: 'Already answered', 410: 'This link has expired', 503: 'Busy' };

/** Headers of every answer of these pages: their own CSP (only this nonce's style; forms post here). */
function pageHeaders(res: Response, pay = false): string {
  const nonce = randomBytes(16).toString('base64');
  // The Pay button's form is answered by a redirect to Stripe Checkout, which form-action must allow.
  const formAction = pay ? `'self' ${CHECKOUT_ORIGIN}` : `'self'`;
  res.setHeader('Content-Security-Policy', `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self' data:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`);
  res.setHeader('Cache-Control', 'no-store');
  // The token is in the path: never sent on to another site.
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Robots-Tag', 'noindex');
  return nonce;
}

/** Checkout for a deposit just asked; if Stripe cannot be reached, the estimate stays accepted and the page says so. */
async function depositCheckout(em: EntityManager, companyUuid: string, invoiceUuid: string, pageUrl: string) {
  try {
    return await checkoutFromPage(em, companyUuid, invoiceUuid, pageUrl);
  } catch (err) {
    logger.error({ err, invoiceUuid }, 'deposit checkout failed');
    return null;
  }
}

export function sharePageRouter(orm: Orm): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '32kb' });
  const base = (token: string) => `${PAGE_PATH}/${token}`;

  const show = async (req: Request, res: Response, token: string, state: Omit<PageState, 'base'>, status = 200) => {
    const em = orm.em.fork();
    const target = await shareService.resolve(em, token);
    const view = await loadDocumentView(pageContext(em, target), target.kind, target.uuid);
    const pay = view.invoice ? await payOffer(em, target.companyUuid, { storedStatus: view.status as never, balanceAmountCents: view.invoice.balanceCents }) : null;
    const nonce = pageHeaders(res, pay !== null);
    res.status(status).type('html').send(documentPage(view, nonce, { ...state, pay, base: base(token) }));
  };

  router.get('/:token', async (req, res, next) => {
    const done = req.query.done;
    const notice =
      done === 'accepted' ? 'Thank you: the estimate is accepted.' : done === 'declined' ? 'The estimate was declined. Thank you for letting us know.' : req.query.paid ? 'Thank you: your payment is being processed.' : undefined;
    await show(req, res, req.params.token, { notice }).catch(next);
  });

  router.get('/:token/pdf', async (req, res, next) => {
    try {
      const em = orm.em.fork();
      const target = await shareService.resolve(em, req.params.token);
      await sendFile(req, res, pdfFile(await loadDocumentView(pageContext(em, target), target.kind, target.uuid)));
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
      const { deposit } = await acceptEstimate(em, target, { signerName: body.signer_name, tier: body.tier, ip: req.ip ?? null, userAgent: req.header('user-agent') ?? null });
      // A deposit asked: the customer goes on to pay it, and comes back to this page.
      const session = deposit ? await depositCheckout(em, target.companyUuid, deposit.uuid, `${linkBase(`${req.protocol}://${req.get('host')}`)}${base(token)}`) : null;
      res.redirect(303, session?.url ?? `${base(token)}?done=accepted`);
    } catch (err) {
      // A form error shows the page again with the message and what was typed.
      const app = asAppError(err);
      if (app?.code === 'VALIDATION_ERROR') return show(req, res, token, { error: app.message, signerName: String(body.signer_name ?? ''), tier: String(body.tier ?? '') }, 400).catch(next);
      next(err);
    }
  });

  // The Pay button: a Stripe Checkout Session for the balance; the customer goes there (303).
  router.post('/:token/pay', async (req, res, next) => {
    const { token } = req.params;
    try {
      const em = orm.em.fork();
      const target = await shareService.resolve(em, token);
      if (target.kind !== 'invoice') throw AppError.notFound('Invoice');
      const session = await checkoutFromPage(em, target.companyUuid, target.uuid, `${linkBase(`${req.protocol}://${req.get('host')}`)}${base(token)}`);
      res.redirect(303, session.url);
    } catch (err) {
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
