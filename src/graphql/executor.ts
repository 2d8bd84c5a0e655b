import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import { DocumentNode, ExecutionResult, execute, GraphQLError, GraphQLSchema, Kind, OperationDefinitionNode, printSchema } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import type { RequestContext } from '../data/context';
import { readOnReplica, replicaFailure } from '../db/replicas';
import { operationShape } from './limits';

// Query execution. graphql-js interprets the document anew for every request: per field and per
// row it looks up the field, builds a resolve-info object, coerces arguments and walks the value;
// on a page of 100 invoices with their customers and payments (≈2,000 fields) that was a quarter
// of the server's CPU. graphql-jit compiles a document once into a function that does the same
// work for that document (the same schema, the same TypeGraphQL resolvers, the same results).
//
// Compiled: query operations. Through graphql-js as before: mutations (uploads, idempotency,
// serial execution; none is a hot path), introspection, and any document graphql-jit declines.
// Variables are checked before execution by the limits plugin (src/graphql/limits.ts), with the
// error shape of every validation error, so both paths see coerced-valid variables.

type Compiled = CompiledQuery | null;

/**
 * Larger operations run through graphql-js. Each new document is compiled once (kept while Apollo
 * keeps it parsed), at ~0.13 ms and ~6 KB of peak heap per field (measured: 1,000 fields 131 ms,
 * 7,500 fields ~1 s and 61 MB), so distinct large documents would make every request pay for a
 * compile; before the field limit, 2,500 aliases exhausted a 160 MB heap. Pages of records (tens of
 * fields run once per row) are what gains from compiling, far below this size.
 */
export const JIT_MAX_FIELDS = 250;

/** Documents Apollo keeps parsed (one object per query text) → their compiled form. */
const compiledByDocument = new WeakMap<DocumentNode, Map<string, Compiled>>();

function jitEligible(document: DocumentNode, operation: OperationDefinitionNode | null | undefined): operation is OperationDefinitionNode {
  if (!operation || operation.operation !== 'query') return false;
  if (operationShape(document, operation).fields > JIT_MAX_FIELDS) return false;
  // Introspection (`__schema`, `__type`) stays with graphql-js, which serves it natively.
  return !operation.selectionSet.selections.some((s) => s.kind !== Kind.FIELD || s.name.value.startsWith('__'));
}

function compiledFor(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode | null | undefined, operationName: string | null): Compiled {
  let byName = compiledByDocument.get(document);
  if (!byName) compiledByDocument.set(document, (byName = new Map()));
  const key = operationName ?? '';
  let compiled = byName.get(key);
  if (compiled === undefined) {
    compiled = null;
    if (jitEligible(document, operation)) {
      // graphql-jit (with ajv and fast-json-stringify, some 200 modules) loads with the first query it compiles.
      const { compileQuery, isCompiledQuery } = require('graphql-jit') as typeof import('graphql-jit');
      const result = compileQuery(schema, document as any, operationName ?? undefined, { disablingCapturingStackErrors: true });
      if (isCompiledQuery(result)) compiled = result;
    }
    byName.set(key, compiled);
  }
  return compiled;
}

/**
 * graphql-jit's errors carry the resolver's error as `originalError`, as graphql-js's do, but no
 * `extensions` object unless that error has one (Apollo's error formatting expects one): each is
 * given as the GraphQLError graphql-js would have made.
 */
function asGraphQLJsErrors(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length) return result;
  const errors = result.errors.map((e) => {
    const out = new GraphQLError(e.message, { path: e.path, originalError: e.originalError ?? undefined, extensions: e.extensions });
    (out as { locations?: unknown }).locations = e.locations;
    return out;
  });
  return { ...result, errors };
}

/** Root fields that read the event feed's pages, whose head stays on the primary (as REST's `/events`). */
const FEED_FIELDS = new Set(['events']);

/**
 * A query may read on a replica that has the company's writes (docs/scaling.md, "Reads on
 * replicas"), as a REST GET does; mutations, subscriptions and the feed's pages stay on the primary.
 */
function lagTolerant(operation: OperationDefinitionNode | null | undefined): boolean {
  if (operation?.operation !== 'query') return false;
  return !operation.selectionSet.selections.some((s) => s.kind !== Kind.FIELD || FEED_FIELDS.has(s.name.value));
}

/**
 * Apollo Server runs a gateway's executor in place of graphql-js's `execute`, after parsing,
 * validation and every plugin hook before execution; the gateway here serves the local schema.
 */
export function jitGateway(schema: GraphQLSchema): GatewayInterface {
  const executor: GatewayExecutor = async (rc) => {
    const variables = rc.request.variables ?? {};
    const compiled = compiledFor(schema, rc.document, rc.operation, rc.operationName);
    const run = async (): Promise<ExecutionResult> => {
      if (compiled) return asGraphQLJsErrors(await compiled.query(undefined, rc.context, variables));
      return execute({ schema, document: rc.document, contextValue: rc.context, variableValues: variables, operationName: rc.operationName ?? undefined });
    };
    if (!lagTolerant(rc.operation)) return run();
    // A resolver's error is in the result, not thrown: a replica's failure there runs the query again on the primary.
    return readOnReplica(rc.context as RequestContext, run, (result) => result.errors?.map((e) => e.originalError).find(replicaFailure));
  };
  return {
    async load() {
      return { executor };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => undefined;
    },
    async stop() {},
  };
}
