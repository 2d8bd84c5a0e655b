import { AppError, assertNever, ErrorCode } from './app-error';

export interface HttpError {
  status: number;
  body: { success: false; data: null; error: { code: ErrorCode; message: string; details?: AppError['details'] } };
}

export function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'VALIDATION_ERROR':
      return 400;
    case 'UNAUTHORIZED':
      return 401;
    case 'ADDON_REQUIRED':
    case 'IP_RESTRICTED':
    case 'USAGE_LIMIT_EXCEEDED':
    case 'PERMISSION_DENIED':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'SERVICE_UNAVAILABLE':
      return 503;
    case 'SCHEDULE_CONFLICT':
      return 409;
    case 'PRECONDITION_FAILED':
      return 412;
    case 'CONFLICT':
    case 'PAYMENTS_NOT_CONFIGURED':
      return 409;
    case 'LINK_EXPIRED':
    case 'CURSOR_EXPIRED':
      return 410;
    case 'INTERNAL':
      return 500;
    default:
      return assertNever(code);
  }
}

export function toHttpError(err: AppError): HttpError {
  const error: HttpError['body']['error'] = { code: err.code, message: err.message };
  if (err.details && err.details.length) error.details = err.details;
  return { status: statusOf(err.code), body: { success: false, data: null, error } };
}
