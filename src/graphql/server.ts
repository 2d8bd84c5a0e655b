import { ensureManaged } from '../auth/authenticate';
import { ApolloServer, ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { GraphQLError, GraphQLFormattedError } from 'graphql';
import type { RequestContext } from '../data/context';
import { asAppError } from '../errors/db-error';
import { toGraphQLError } from '../errors/to-graphql-error';
import { logger } from '../logger';
import { idempotencyPlugin } from './idempotency-plugin';
import { buildGraphQLSchema } from './schema';
import { jitGateway } from './executor';
import { literalErrorDetail } from './input-errors';
import { GraphQLLimits, limitsPlugin } from './limits';
import { inputTextPlugin } from './input-text';
import { accessPlugin } from './access';

// Apollo's own codes for a bad document or bad variables are our VALIDATION_ERROR.
const CLIENT_ERRORS = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'BAD_REQUEST', 'PERSISTED_QUERY_NOT_FOUND', 'OPERATION_RESOLUTION_FAILURE']);

export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const app = asAppError(error);
  if (app) {
    const g = toGraphQLError(app);
    return { message: g.message, path: formatted.path, locations: formatted.locations, extensions: g.extensions };
  }
  const code = formatted.extensions?.code as string | undefined;
  if (code && CLIENT_ERRORS.has(code)) {
    // A bad value written in the document names its field, as every validation error does.
    const detail = error instanceof GraphQLError ? literalErrorDetail(error) : null;
    const extensions = detail ? { code: 'VALIDATION_ERROR', details: [detail] } : { code: 'VALIDATION_ERROR' };
    return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions };
  }
  logger.error({ err: (error as { originalError?: unknown })?.originalError ?? error }, 'graphql resolver failed');
  return { message: 'Internal server error', path: formatted.path, extensions: { code: 'INTERNAL' } };
}

/**
 * Apollo's cache-control plugin (on by default) hooks every field resolver to collect cache
 * hints; the schema declares none, so all it ever did was answer `Cache-Control: no-store`. It is
 * disabled (per-field work on every request) and this sends the same header.
 */
const noStorePlugin: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        response.http.headers.set('cache-control', 'no-store');
      },
    };
  },
};

/** A mutation gets the managed company, user and key before any resolver runs (src/auth/authenticate.ts). */
const managedForMutationsPlugin: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation, contextValue }) {
        if (operation?.operation !== 'query') ensureManaged(contextValue);
      },
    };
  },
};

/** Tokens in a GraphQL document: about ten times the largest document the limits let through. */
export const MAX_TOKENS = 20_000;

export async function createApolloServer(limits: GraphQLLimits, jit = true, directCalls = true, extraPlugins: ApolloServerPlugin<RequestContext>[] = []): Promise<ApolloServer<RequestContext>> {
  const schema = buildGraphQLSchema(directCalls);
  const server = new ApolloServer<RequestContext>({
    // The schema; queries compiled by graphql-jit unless GRAPHQL_JIT=false (src/graphql/executor.ts).
    ...(jit ? { gateway: jitGateway(schema) } : { schema }),
    introspection: true,
    // Parsing stops past this many tokens, before validation (whose checks of overlapping fields
    // grow with the square of repeated selections) or any limit can see the document.
    parseOptions: { maxTokens: MAX_TOKENS },
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphQLError,
    // The input's text and depth first: the limits and the Idempotency-Key's hash walk the variables.
    plugins: [inputTextPlugin(), managedForMutationsPlugin, accessPlugin(), limitsPlugin(limits), idempotencyPlugin(), ApolloServerPluginCacheControlDisabled(), ApolloServerPluginLandingPageDisabled(), noStorePlugin, ...extraPlugins],
    // main.ts owns shutdown (drain HTTP first, then stop Apollo); Apollo's own signal handlers
    // would stop it under in-flight requests and hang the second stop.
    stopOnTerminationSignals: false,
  });
  await server.start();
  return server;
}
