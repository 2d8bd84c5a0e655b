export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'UNAUTHORIZED'
  | 'ADDON_REQUIRED'
  | 'IP_RESTRICTED'
  | 'USAGE_LIMIT_EXCEEDED'
  | 'NOT_FOUND'
  | 'CURSOR_EXPIRED'
  | 'INTERNAL';

const FORBIDDEN = new Set<ErrorCode>(['ADDON_REQUIRED', 'IP_RESTRICTED', 'USAGE_LIMIT_EXCEEDED']);

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

  /**
   * Read by graphql-js when it wraps this error, and by Apollo for the HTTP status: a 403 refusal
   * (an add-on, IP or usage limit) answers GraphQL with HTTP 403 too, as REST does.
   */
  get extensions(): Record<string, unknown> | undefined {
    return FORBIDDEN.has(this.code) ? { code: this.code, http: { status: 403 } } : undefined;
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
