/** Every error code (the OpenAPI document lists them from here). */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'ADDON_REQUIRED',
  'IP_RESTRICTED',
  'USAGE_LIMIT_EXCEEDED',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'CONFLICT',
  'LINK_EXPIRED',
  'CURSOR_EXPIRED',
  'SERVICE_UNAVAILABLE',
  'SCHEDULE_CONFLICT',
  'PRECONDITION_FAILED',
  'PAYMENTS_NOT_CONFIGURED',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const FORBIDDEN = new Set<ErrorCode>(['ADDON_REQUIRED', 'IP_RESTRICTED', 'USAGE_LIMIT_EXCEEDED', 'PERMISSION_DENIED']);

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
    if (FORBIDDEN.has(this.code)) return { code: this.code, http: { status: 403 } };
    if (this.code === 'SERVICE_UNAVAILABLE') return { code: this.code, http: { status: 503, headers: new Map([['retry-after', '1']]) } };
    return undefined;
  }

  static validation(details: ErrorDetail[]): AppError {
    const message = details.length === 1 ? details[0].message : 'Validation failed';
    return new AppError('VALIDATION_ERROR', message, details);
  }

  static field(field: string, message: string): AppError {
    return AppError.validation([{ field, message: `${field} ${message}` }]);
  }

  /** 403: the role or the key's scopes do not cover what the operation needs (docs/people-and-access.md). */
  static permissionDenied(needs: string): AppError {
    return new AppError('PERMISSION_DENIED', `This API key may not do this: it needs ${needs}`, [{ field: 'scope', message: `needs ${needs}` }]);
  }

  static notFound(what: string): AppError {
    return new AppError('NOT_FOUND', `${what} not found`);
  }

  /** 409: the record's state forbids the action (converting an estimate twice, answering it twice). */
  static conflict(message: string): AppError {
    return new AppError('CONFLICT', message);
  }
}

export function assertNever(x: never): never {
  throw new Error(`unexpected value ${String(x)}`);
}
