import type { ApolloServerPlugin } from '@apollo/server';
import { Kind, print } from 'graphql';
import type { RequestContext } from '../data/context';
import { beginIdempotent, IDEMPOTENCY_HEADER, IdempotentStart } from '../data/idempotency';
import { asAppError } from '../errors/db-error';
import { toGraphQLError } from '../errors/to-graphql-error';

/**
 * Idempotency-Key as a request header on create mutations (docs/invoices-and-payments.md), through the same store
 * as REST: keyed by the operation and its variables; a replay skips execution and answers with
 * the first response; a response with errors is not kept.
 */
/** Mutations that create or send, besides the create* ones, that honour Idempotency-Key. */
const IDEMPOTENT = new Set(['convertEstimateToJob', 'invoiceJob', 'sendInvoice', 'sendEstimate']);
const idempotent = (name: string) => name.startsWith('create') || IDEMPOTENT.has(name);

export function idempotencyPlugin(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart({ request }) {
      const key = request.http?.headers.get(IDEMPOTENCY_HEADER);
      if (key === undefined || key === null) return;
      let start: IdempotentStart | undefined;
      return {
        async responseForOperation(rc) {
          const creates = rc.operation.operation === 'mutation' && rc.operation.selectionSet.selections.some((s) => s.kind === Kind.FIELD && idempotent(s.name.value));
          if (!creates) return null;
          const body = { query: print(rc.document), operationName: rc.operationName ?? null, variables: rc.request.variables ?? {} };
          try {
            start = await beginIdempotent(rc.contextValue, 'POST /graphql', key, body);
          } catch (err) {
            const app = asAppError(err);
            if (!app) throw err;
            const g = toGraphQLError(app);
            return { http: rc.response.http, body: { kind: 'single', singleResult: { data: null, errors: [{ message: g.message, extensions: g.extensions }] } } };
          }
          if (start.kind === 'run') {
            // The mutation runs in the key's transaction (src/data/idempotency.ts).
            rc.contextValue.em = start.ctx.em;
            rc.contextValue.loaders = start.ctx.loaders;
            return null;
          }
          rc.response.http.headers.set('idempotent-replayed', 'true');
          return { http: rc.response.http, body: { kind: 'single', singleResult: start.response as Record<string, unknown> } };
        },
        async willSendResponse(rc) {
          if (start?.kind !== 'run') return;
          const body = rc.response.body;
          if (body.kind === 'single' && !body.singleResult.errors?.length) await start.finish(body.singleResult);
          else await start.abandon();
        },
      };
    },
  };
}
