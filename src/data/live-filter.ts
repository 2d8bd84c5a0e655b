import { Filter } from '@mikro-orm/core';

/**
 * The default soft-delete filter: ORM reads of soft-deleted entities see the live rows only
 * (deleted_at is null), unless a read turns it off, `filters: false` or `{ live: false }`, as the
 * deliberate exceptions do (restore and its parents check, a visit read with its deleted ones, the
 * loaders by id, which show deleted targets, the document view, payment restore). Never applied
 * through relations (src/db/orm.ts): a record whose customer was deleted is still found, with it.
 * Every @TenantScoped() entity carries it (src/data/base.entity.ts); reads only.
 */
export const LIVE_FILTER = 'live';

type Em = { getMetadata(): { find(name: string): { properties: object } | undefined } };

const liveOnly = (_args: unknown, type: string, em: Em, _options: unknown, entityName?: unknown) => {
  const meta = em.getMetadata().find(typeof entityName === 'function' ? entityName.name : String(entityName));
  return type === 'read' && meta && 'deletedAt' in meta.properties ? { deletedAt: null } : {};
};

export const LiveOnly = () => Filter({ name: LIVE_FILTER, cond: liveOnly as never, default: true, args: false });
