import type { ListWhere } from '../../data/list-where';
import { companyIs, TenantScope } from '../../data/tenant';

// The calendar's filters (GET /api/v1/visits, GraphQL visits; docs/visits.md, The calendar) as
// conditions of the shared list (src/data/crud.ts listPage), for the service and for the
// statement committed under src/data/queries/visits.sql (the entity's CommittedListFilter).

/** The half-open range [from, to) of two optional instants, as PostgreSQL compares it with a visit's `period`. */
export const RANGE = `tstzrange(?::timestamptz, ?::timestamptz, '[)')`;

export interface CalendarFilter {
  from?: Date | null;
  to?: Date | null;
  userId?: string | null;
  status?: readonly string[] | null;
  jobUuid?: string | null;
}

/**
 * Visits overlapping [from, to) (either end may be open; an unscheduled visit has no period and
 * is then left out), of a user's crews (through visit_assignments, whose rows carry the visit's
 * period: the index (company_uuid, user_id, period) finds a technician's week, migration 0013),
 * of some statuses, of a job.
 */
export function calendarWhere(scope: TenantScope, f: CalendarFilter): (w: ListWhere) => void {
  return (w) => {
    if (f.jobUuid) w.equals('job', f.jobUuid.toLowerCase());
    if (f.status?.length) w.oneOf('status', f.status);
    const ranged = !!(f.from || f.to);
    const range = [f.from ?? null, f.to ?? null];
    if (ranged) w.and(`e."period" && ${RANGE}`, range);
    if (f.userId) {
      const co = companyIs(scope, 'a');
      const inRange = ranged ? ` and a."period" && ${RANGE}` : '';
      w.and(`${w.col('uuid')} in (select a."visit_uuid" from "visit_assignments" as a where ${co.sql} and a."user_id" = ?${inRange})`, [...co.params, f.userId.toLowerCase(), ...(ranged ? range : [])]);
    }
  };
}
