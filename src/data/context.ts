import type { EntityManager } from '@mikro-orm/postgresql';
import type { ApiKey } from '../modules/api-key/api-key.entity';
import type { Company } from '../modules/company/company.entity';
import type { User } from '../modules/user/user.entity';
import type { Caller } from '../domain/scopes';
import { Loaders } from './loaders';
import type { ListConditions } from './list-where';

/**
 * Built once per request by the auth middleware and shared by REST and GraphQL. Copies (`{ ...ctx,
 * em }` for a transaction) carry the managed records, made when copied.
 */
export interface RequestContext {
  requestId: string;
  /** The key's company: its uuid, known without loading the record. */
  companyId: string;
  /**
   * The key as read when the request began: a read-only snapshot (access checks, logs). The
   * managed records below are made when first used (src/auth/authenticate.ts), before any write.
   */
  key: Pick<ApiKey, 'id' | 'allowedIps' | 'usageLimit' | 'usagePeriod' | 'lastUsedAt'>;
  /**
   * Who is asking (src/domain/scopes.ts): the key's user id, their role and the key's scopes, read
   * off the key's row (nothing loaded); `access.rights.allows('jobs:read')` decides.
   */
  access: Caller;
  company: Company;
  user: User;
  apiKey: ApiKey;
  /** A fork of the global EntityManager, with the tenant filter bound to the company. */
  em: EntityManager;
  loaders: Loaders;
  /** Absolute base URL the request was addressed to (links such as photo_url). */
  baseUrl?: string;
  /**
   * Set by an export (docs/import-export.md): a list service's listPage hands it the list's
   * conditions and order instead of reading a page, so that the export streams exactly the rows
   * the list would show (the same filters and reach).
   */
  exportList?: (entity: Function, conditions: ListConditions) => void;
  /**
   * What a company's custom-field definitions are read once per (src/modules/custom-field/custom-data.ts):
   * the request's loaders when unset; an import's batch sets one for all its rows, which share its
   * transaction (src/modules/import/import.batch.ts).
   */
  readOnce?: object;
}

/**
 * Runs `fn` in one database transaction with a copy of the request's context whose `em` is the
 * transaction's (the same tenant scope, loaders and managed records): the one way services open a
 * transaction. Commits when `fn` resolves, rolls back when it throws.
 */
export function inTransaction<T, C extends RequestContext = RequestContext>(ctx: C, fn: (tx: C, em: EntityManager) => Promise<T>): Promise<T> {
  // The request's logger context (its label in the DEBUG_SQL log) goes to begin and commit too.
  // The request's loaders are named: a request context makes them when first read (src/auth/authenticate.ts).
  return ctx.em.transactional((em) => fn({ ...ctx, em: em as EntityManager, loaders: ctx.loaders }, em as EntityManager), { loggerContext: ctx.em.getLoggerContext() });
}
