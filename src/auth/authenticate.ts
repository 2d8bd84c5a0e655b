import type { Request } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../db/orm';
import { AppError } from '../errors/app-error';
import { TENANT_FILTER } from '../core/base.entity';
import type { RequestContext } from '../core/context';
import { Loaders } from '../graphql/loaders';
import { ApiKey } from '../modules/api-key/api-key.entity';
import { hashApiKey, KEY_PATTERN } from './api-key';

/** Resolves the Bearer key to its company, user and key, and builds the request context. */
export async function authenticate(orm: Orm, req: Request, requestId: string): Promise<RequestContext> {
  const header = req.headers.authorization;
  if (!header) throw new AppError('UNAUTHORIZED', 'Missing API key: send Authorization: Bearer <key>');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m || !KEY_PATTERN.test(m[1])) throw new AppError('UNAUTHORIZED', 'Malformed API key');
  // useContext: inside ctx.em.transactional(...), ctx.em itself resolves to the transaction's fork.
  const em = orm.em.fork({ clear: true, useContext: true });
  // Revocation takes effect at once: the key is looked up on every request.
  const key = await em.findOne(
    ApiKey,
    { keyHash: hashApiKey(m[1]), revokedAt: null },
    { populate: ['company', 'user'], filters: false },
  );
  if (!key) throw new AppError('UNAUTHORIZED', 'Invalid or revoked API key');
  return contextFor(em, key, requestId);
}

/** The request context of a key, on an EntityManager fork of its own. */
export function contextFor(em: EntityManager, key: ApiKey, requestId: string): RequestContext {
  em.setFilterParams(TENANT_FILTER, { companyId: key.company.uuid });
  return { requestId, company: key.company, user: key.user, apiKey: key, em, loaders: new Loaders(em) };
}
