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

/** The AppError behind an error thrown anywhere (directly, wrapped by GraphQL, or by the driver). */
export function asAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  const original = (err as { originalError?: unknown })?.originalError;
  if (original && original !== err) return asAppError(original);
  return fromDbError(err) ?? fromDbError((err as { cause?: unknown })?.cause);
}
