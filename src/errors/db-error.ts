import { AppError } from './app-error';

/** Database constraint violations become 400s; anything else is not ours to explain. */
export function fromDbError(err: unknown): AppError | null {
  const e = err as { code?: string; constraint?: string; column?: string };
  switch (e?.code) {
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
