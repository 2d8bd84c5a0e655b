import { GraphQLError } from 'graphql';
import { AppError, assertNever } from './app-error';

export function toGraphQLError(err: AppError): GraphQLError {
  const extensions: Record<string, unknown> = { code: err.code };
  switch (err.code) {
    case 'VALIDATION_ERROR':
    case 'PERMISSION_DENIED':
      extensions.details = err.details ?? [];
      break;
    case 'UNAUTHORIZED':
    case 'ADDON_REQUIRED':
    case 'IP_RESTRICTED':
    case 'USAGE_LIMIT_EXCEEDED':
    case 'NOT_FOUND':
    case 'SERVICE_UNAVAILABLE':
    case 'SCHEDULE_CONFLICT':
    case 'PRECONDITION_FAILED':
    case 'CONFLICT':
    case 'PAYMENTS_NOT_CONFIGURED':
    case 'LINK_EXPIRED':
    case 'CURSOR_EXPIRED':
      break;
    case 'INTERNAL':
      return new GraphQLError('Internal server error', { extensions });
    default:
      return assertNever(err.code);
  }
  return new GraphQLError(err.message, { extensions });
}
