import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../data/context';
import { findActive } from '../../data/crud';
import { AppError } from '../../errors/app-error';
import { Estimate } from '../estimate/estimate.entity';
import { Invoice } from '../invoice/invoice.entity';
import type { DocumentKind } from './document.view';
import { linkBase } from './document.settings';
import { ShareLink, ShareLinkInput } from './share.inputs';

// Share links (docs/documents.md): a random token of 256 bits in the URL, only its SHA-256 in the
// database; a token is looked up by its hash and the hashes compared in constant time, so a wrong
// token learns nothing but 404. Expired or revoked links: 410 LINK_EXPIRED.

export const PAGE_PATH = '/p';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hashOf = (token: string) => createHash('sha256').update(token).digest();

export interface ShareTarget {
  companyUuid: string;
  kind: DocumentKind;
  uuid: string;
  token: string;
}

function exec<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  return em.getConnection().execute(sql, params, 'all', em.getTransactionContext()) as Promise<T[]>;
}

const documentOf = (ctx: RequestContext, kind: DocumentKind, uuid: string) =>
  kind === 'invoice' ? findActive(ctx, Invoice, uuid, 'Invoice') : findActive(ctx, Estimate, uuid, 'Estimate');

/** The URL of a new link to a document the caller can read (also used by mail). */
export async function newShareLink(ctx: RequestContext, kind: DocumentKind, uuid: string, days = 30): Promise<ShareLink> {
  const token = randomBytes(32).toString('base64url');
  const [row] = await exec<{ expires_at: Date }>(
    ctx.em,
    `insert into share_links (uuid, company_uuid, document_kind, document_uuid, token_hash, expires_at)
     values (?, ?, ?, ?, ?, now() + make_interval(days => ?)) returning expires_at`,
    [randomUUID(), ctx.companyId, kind, uuid, hashOf(token), days],
  );
  return Object.assign(new ShareLink(), { url: `${linkBase(ctx.baseUrl)}${PAGE_PATH}/${token}`, expiresAt: new Date(row.expires_at) });
}

export const shareService = {
  async create(ctx: RequestContext, kind: DocumentKind, uuid: string, input: ShareLinkInput | null | undefined): Promise<ShareLink> {
    const doc = await documentOf(ctx, kind, uuid);
    return newShareLink(ctx, kind, doc.uuid, input?.expiresInDays ?? 30);
  },

  /** Revokes every link of the document that is still open. */
  async revoke(ctx: RequestContext, kind: DocumentKind, uuid: string): Promise<{ message: string }> {
    const doc = await documentOf(ctx, kind, uuid);
    await exec(ctx.em, `update share_links set revoked_at = now() where company_uuid = ? and document_kind = ? and document_uuid = ? and revoked_at is null`, [ctx.companyId, kind, doc.uuid]);
    return { message: 'Share links revoked' };
  },

  /** The document a token opens: 404 for an unknown token, 410 LINK_EXPIRED for an expired or revoked one. */
  async resolve(em: EntityManager, token: string): Promise<ShareTarget> {
    if (!TOKEN.test(token)) throw AppError.notFound('Link');
    const hash = hashOf(token);
    const [row] = await exec<{ company_uuid: string; document_kind: DocumentKind; document_uuid: string; token_hash: Buffer; open: boolean }>(
      em,
      `select company_uuid, document_kind, document_uuid, token_hash, (revoked_at is null and expires_at > now()) as open from share_links where token_hash = ?`,
      [hash],
    );
    if (!row || !timingSafeEqual(row.token_hash, hash)) throw AppError.notFound('Link');
    if (!row.open) throw new AppError('LINK_EXPIRED', 'This link has expired or was revoked');
    return { companyUuid: row.company_uuid, kind: row.document_kind, uuid: row.document_uuid, token };
  },
};
