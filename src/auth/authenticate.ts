import type { Request } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../db/orm';
import { AppError } from '../errors/app-error';
import { TENANT_FILTER } from '../data/base.entity';
import type { RequestContext } from '../data/context';
import { aliasedColumns, mappedColumns, perMetadata, recordOf } from '../data/entity-sql';
import { Loaders } from '../data/loaders';
import { holdToReach } from '../data/reach';
import { leanRecord } from '../data/record';
import { runStatement } from '../data/prepared';
import { ApiKey } from '../modules/api-key/api-key.entity';
import { Company } from '../modules/company/company.entity';
import { User } from '../modules/user/user.entity';
import { hashApiKey, KEY_PATTERN } from './api-key';
import type { KeyCache } from './key-cache';
import { actAs, requestActor } from '../modules/event/event.actor';
import { Caller, callerOf, Role } from '../domain/scopes';

/**
 * Resolves the Bearer key to its company, user and key, and builds the request context. The
 * company, the user and the key become managed entities of the request's EntityManager when first
 * used (em.map of three records cost ~0.5 ms of CPU per request; a read of a list does not need
 * them); `ensureManaged` makes them at once, as the auth middleware does before anything that may
 * write (REST methods other than GET and HEAD, GraphQL mutations), so that they always belong to
 * the request's EntityManager and never to a transaction's fork.
 */
export async function authenticate(orm: Orm, req: Request, requestId: string, keys: KeyCache | null = null): Promise<RequestContext> {
  const header = req.headers.authorization;
  if (!header) throw new AppError('UNAUTHORIZED', 'Missing API key: send Authorization: Bearer <key>');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m || !KEY_PATTERN.test(m[1])) throw new AppError('UNAUTHORIZED', 'Malformed API key');
  // The request's EntityManager, forked when first used (a `{ company { name } }` query never
  // uses one; forking cost ~5% of its CPU). useContext: inside ctx.em.transactional(...), ctx.em
  // itself resolves to the transaction's fork. The label names the request in the DEBUG_SQL log:
  // `[query] (request <id>) …` (docs/benchmark.md).
  let forked: EntityManager | undefined;
  // The ORM the request's EntityManager comes from: the primary's, or a replica's for a
  // lag-tolerant read (readFrom, src/db/replicas.ts).
  let source: Orm = orm;
  const fork = () => (forked ??= source.em.fork({ clear: true, useContext: true, loggerContext: { label: `request ${requestId}` } }));
  // Revocation takes effect at once: the key is looked up on every request, or kept by the key
  // cache, which every change of a key, company or user empties in every process (src/auth/key-cache.ts).
  const q = keyQuery(orm.em.getMetadata());
  const hash = hashApiKey(m[1]);
  const load = async () => (await runStatement<Record<string, unknown>[]>(fork(), q.sql, [hash]))[0];
  const found = keys ? await keys.find(hash, load) : await load();
  if (!found) throw new AppError('UNAUTHORIZED', 'Invalid or revoked API key');
  const row = ownCopy(found);
  // Lean records need the metadata and the driver only, which every EntityManager of the ORM shares.
  const key = leanRecord(orm.em, ApiKey, row) as ApiKey;
  const companyId = key.company.uuid;
  // Decided once per kept row: the key cache hands every request the same row (docs/people-and-access.md).
  let access = callers.get(found);
  if (!access) callers.set(found, (access = callerOf(row[q.userIdColumn] as string, row[q.roleColumn] as Role, key.scopes)));
  let scoped: EntityManager | undefined;
  const em = () => {
    if (!scoped) {
      scoped = fork();
      scoped.setFilterParams(TENANT_FILTER, { companyId });
      holdToReach(scoped, { companyId, access });
      actAs(scoped, requestActor({ key, requestId }));
    }
    return scoped;
  };
  let managed: ApiKey | undefined;
  // The statement of `em.findOne(ApiKey, { keyHash, revokedAt: null }, { populate: ['company', 'user'], filters: false })`,
  // its row made into the three managed entities as em.find would; company and user first, so
  // that the key's references resolve to them through the identity map.
  const manage = () => {
    if (!managed) {
      em().map(Company, recordOf(row, 'c1', q.companyColumns));
      em().map(User, recordOf(row, 'u2', q.userColumns));
      managed = em().map(ApiKey, row);
    }
    return managed;
  };
  let loaders: Loaders | undefined;
  const loadersOf = () => (loaders ??= new Loaders(em(), { companyId, access }));
  const companySnapshot = () => leanRecord(orm.em, Company, recordOf(row, 'c1', q.companyColumns)) as Company;
  const reset = (from: Orm) => {
    source = from;
    forked = scoped = loaders = managed = undefined;
  };
  return new KeyContext(requestId, companyId, key, access, em, loadersOf, manage, companySnapshot, reset);
}

/** The caller of each key row the key cache keeps (a looked-up row is new each time, and dropped with its request). */
const callers = new WeakMap<object, Caller>();

/**
 * A request's context whose company, user and key are made managed entities when first read: the
 * getters (on the prototype, so that Apollo's copy of the context keeps them) make all three and
 * set them as the context's own properties (so that `{ ...ctx, em }` copies them; make the copy
 * after ensureManaged, as every transaction is).
 */
class KeyContext {
  baseUrl?: string;
  constructor(
    readonly requestId: string,
    readonly companyId: string,
    readonly key: ApiKey,
    readonly access: Caller,
    private readonly emOf: () => EntityManager,
    private readonly loadersOf: () => Loaders,
    private readonly manage: () => ApiKey,
    private readonly companySnapshot: () => Company,
    private readonly reset: (from: Orm) => void,
  ) {}

  /** From now on the request's EntityManager, loaders and managed records come from `from` (made anew when next read). */
  readFrom(from: Orm): void {
    this.reset(from);
    for (const prop of ['em', 'loaders', 'apiKey', 'company', 'user']) delete (this as Record<string, unknown>)[prop];
  }

  /**
   * The request's EntityManager, forked when first read, and its loaders, made when first read
   * (Apollo's copy of the context shares both: `emOf` and `loadersOf` are memoised); then own
   * properties, as the managed records below.
   */
  get em(): EntityManager {
    return (this.em = this.emOf());
  }

  /** Assigned (by the getter, or by a copy such as Apollo's `Object.assign`): an own property from then on. */
  set em(em: EntityManager) {
    Object.defineProperty(this, 'em', { value: em, enumerable: true, writable: true, configurable: true });
  }

  get loaders(): Loaders {
    return (this.loaders = this.loadersOf());
  }

  set loaders(loaders: Loaders) {
    Object.defineProperty(this, 'loaders', { value: loaders, enumerable: true, writable: true, configurable: true });
  }

  /** The company as the key's row has it, read-only (see readCompany). */
  companyRecord(): Company {
    return this.companySnapshot();
  }

  get apiKey(): ApiKey {
    return this.managed();
  }

  get company(): Company {
    return this.managed().company;
  }

  get user(): User {
    return this.managed().user;
  }

  private managed(): ApiKey {
    const key = this.manage();
    const own = (value: unknown) => ({ value, enumerable: true, writable: true, configurable: true });
    Object.defineProperties(this, { apiKey: own(key), company: own(key.company), user: own(key.user) });
    return key;
  }
}

/**
 * A request's own copy of a key row (the cache hands the same row to every request): arrays
 * (add-ons, allow-lists) and dates copied, so that a change to a managed entity never reaches the row.
 */
function ownCopy(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in row) {
    const v = row[k];
    out[k] = Array.isArray(v) ? v.slice() : v instanceof Date ? new Date(v.getTime()) : v !== null && typeof v === 'object' ? structuredClone(v) : v;
  }
  return out;
}

/**
 * The key's company for a response only (the `company` query, GET /companies/me): a read-only
 * instance made from the key's row (src/data/record.ts), without making the three managed
 * entities (em.map, most of the CPU of `{ company { name } }`). Changes go through ctx.company.
 * A context of another kind (contextFor, a transaction's copy) gives ctx.company.
 */
export function readCompany(ctx: RequestContext): Company {
  return ctx instanceof KeyContext && !Object.prototype.hasOwnProperty.call(ctx, 'company') ? ctx.companyRecord() : ctx.company;
}

/**
 * Points a request's reads at another ORM (a replica's, or back to the primary's) before anything
 * was read through it; false for a context of another kind (it stays on the primary).
 */
export function readFrom(ctx: RequestContext, from: Orm): boolean {
  if (!(ctx instanceof KeyContext)) return false;
  ctx.readFrom(from);
  return true;
}

/** Makes the context's company, user and key managed entities now (see authenticate). */
export function ensureManaged(ctx: RequestContext): void {
  void ctx.apiKey;
}

/** The statement of the key lookup, written once from the metadata. */
const keyQuery = perMetadata((metadata) => {
  const companyColumns = mappedColumns(metadata, Company);
  const userColumns = mappedColumns(metadata, User);
  // Named columns, not "a0".*: a prepared statement's columns must not change under it (src/data/prepared.ts).
  const select = [...mappedColumns(metadata, ApiKey).map((c) => `"a0"."${c}"`), ...aliasedColumns('c1', companyColumns), ...aliasedColumns('u2', userColumns)].join(', ');
  const key = metadata.get(ApiKey.name);
  const [company, user] = [key.properties.company, key.properties.user];
  const pk = (cls: Function) => metadata.get(cls.name).properties[metadata.get(cls.name).primaryKeys[0]].fieldNames[0];
  const sql =
    `select ${select} from "${key.tableName}" as "a0" ` +
    `inner join "${metadata.get(Company.name).tableName}" as "c1" on "a0"."${company.fieldNames[0]}" = "c1"."${pk(Company)}" ` +
    `inner join "${metadata.get(User.name).tableName}" as "u2" on "a0"."${user.fieldNames[0]}" = "u2"."${pk(User)}" ` +
    `where "a0"."${key.properties.keyHash.fieldNames[0]}" = ? and "a0"."${key.properties.revokedAt.fieldNames[0]}" is null ` +
    // A deactivated user's keys stop at once (the cache is emptied by the change, migration 0020).
    `and "u2"."${metadata.get(User.name).properties.active.fieldNames[0]}" limit 1`;
  return { sql, companyColumns, userColumns, userIdColumn: user.fieldNames[0], roleColumn: `u2__${metadata.get(User.name).properties.role.fieldNames[0]}` };
});

/** The request context of a managed key, on an EntityManager fork of its own. */
export function contextFor(em: EntityManager, key: ApiKey, requestId: string): RequestContext {
  em.setFilterParams(TENANT_FILTER, { companyId: key.company.uuid });
  const access = callerOf(key.user.id, key.user.role as Role, key.scopes);
  holdToReach(em, { companyId: key.company.uuid, access });
  return { requestId, companyId: key.company.uuid, key, access, company: key.company, user: key.user, apiKey: key, em, loaders: new Loaders(em, { companyId: key.company.uuid, access }) };
}
