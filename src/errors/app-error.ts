export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'UNAUTHORIZED'
  | 'ADDON_REQUIRED'
  | 'IP_RESTRICTED'
  | 'USAGE_LIMIT_EXCEEDED'
  | 'NOT_FOUND'
  | 'INTERNAL';

export interface ErrorDetail {
  field: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
  }

  static validation(details: ErrorDetail[]): AppError {
    const message = details.length === 1 ? details[0].message : 'Validation failed';
    return new AppError('VALIDATION_ERROR', message, details);
  }

  static field(field: string, message: string): AppError {
    return AppError.validation([{ field, message: `${field} ${message}` }]);
  }

  static notFound(what: string): AppError {
    return new AppError('NOT_FOUND', `${what} not found`);
  }
}

export function assertNever(x: never): never {
  throw new Error(`unexpected value ${String(x)}`);
}
