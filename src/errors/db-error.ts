import { AppError } from './app-error';

// The exclusion constraint over active visit assignments (migration 0013, docs/visits.md).
const DOUBLE_BOOKING = 'visit_assignments_no_double_booking';

/**
 * 409 naming the user and the visit already holding the time, read from PostgreSQL's detail:
 * `Key (user_id, period, visit_uuid)=(…) conflicts with existing key (user_id, period, visit_uuid)=(u, [..), v).`
 * Both belong to the request's company: a user is booked only on its own company's visits.
 */
function scheduleConflict(detail = ''): AppError {
  const existing = /conflicts with existing key \([^)]*\)=\(([0-9a-f-]{36}),.*, ([0-9a-f-]{36})\)\.?$/.exec(detail);
  if (!existing) return new AppError('SCHEDULE_CONFLICT', 'A user of this visit is already booked at an overlapping time');
  return new AppError('SCHEDULE_CONFLICT', `User ${existing[1]} is already booked on visit ${existing[2]} at an overlapping time`);
}

/** Database constraint violations become 400s; anything else is not ours to explain. */
export function fromDbError(err: unknown): AppError | null {
  const e = err as { code?: string; constraint?: string; column?: string; detail?: string };
  switch (e?.code) {
    case '23P01':
      return e.constraint === DOUBLE_BOOKING ? scheduleConflict(e.detail) : null;
    case '23505':
      // Another record of the company holds the external id (migration 0033's claim trigger; detail: its uuid).
      if (e.constraint === 'external_id_taken') return AppError.field(`externalIds.${e.column}`, `is already the external id of record ${e.detail}`);
      return AppError.validation([{ field: e.constraint ?? 'record', message: 'a record with this value already exists' }]);
    case '23503':
      return AppError.validation([{ field: e.constraint ?? 'reference', message: 'references a record that does not exist' }]);
    case '23514':
    case '23502':
    case '22003':
      return AppError.validation([{ field: e.column ?? e.constraint ?? 'value', message: 'is not an allowed value' }]);
    default:
      return null;
  }
}

// The database is not reachable (stopped, restarting, failing over, or every connection busy):
// not the client's fault and not a bug, so 503 with Retry-After, and the request may be retried.
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
// "Transaction query already complete": knex's answer to a statement on a transaction whose
// connection was lost (and so rolled back) a moment before.
const UNAVAILABLE_MESSAGES = /Connection terminated|connection error|Client has encountered a connection error|Timeout acquiring a connection|the database system is (starting up|shutting down)|Transaction query already complete/i;

/**
 * 503 SERVICE_UNAVAILABLE for an error of a database that is not reachable, or null. The error is
 * its `cause`: logged with it, and recognised by a read on a replica that runs again on the
 * primary (replicaFailure, src/db/replicas.ts) after a layer turned it into this AppError.
 */
export function unavailable(err: unknown): AppError | null {
  const e = err as { code?: string; name?: string; message?: string } | null;
  if (!e || typeof e !== 'object') return null;
  if ((e.code && UNAVAILABLE_CODES.has(e.code)) || e.name === 'KnexTimeoutError' || UNAVAILABLE_MESSAGES.test(e.message ?? '')) {
    return Object.assign(new AppError('SERVICE_UNAVAILABLE', 'The database is not reachable; retry shortly'), { cause: err });
  }
  return null;
}

/** The AppError behind an error thrown anywhere (directly, wrapped by GraphQL, or by the driver). */
export function asAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  const original = (err as { originalError?: unknown })?.originalError;
  if (original && original !== err) return asAppError(original);
  const cause = (err as { cause?: unknown })?.cause;
  return fromDbError(err) ?? fromDbError(cause) ?? unavailable(err) ?? unavailable(cause);
}
