import type { ApolloServerPlugin } from '@apollo/server';
import {
  DocumentNode,
  FragmentDefinitionNode,
  getNamedType,
  getNullableType,
  GraphQLError,
  GraphQLSchema,
  isLeafType,
  isListType,
  Kind,
  OperationDefinitionNode,
  SelectionSetNode,
} from 'graphql';
import { ComplexityEstimator, getComplexity } from 'graphql-query-complexity';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../core/pagination';
import { AppError } from '../errors/app-error';
import { variableErrors } from './input-errors';

export interface GraphQLLimits {
  maxDepth: number;
  maxCost: number;
}

export interface QueryCost {
  requestedQueryCost: number;
  maximumAvailable: number;
  depth: number;
  maximumDepth: number;
}

/**
 * Cost of a field (docs/access-and-operations.md): a scalar costs 0 and an object 1. A relation
 * list costs `limit` (default and maximum 100) times (1 + its selection); a paginated query costs
 * 1 + `limit` (default 50, maximum 100) times its selection. Introspection is free.
 */
export const costEstimator: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  if (field.name.startsWith('__') || type.name.startsWith('__')) return 0;
  if (isLeafType(getNamedType(field.type))) return 0;
  const list = isListType(getNullableType(field.type));
  if (field.args.some((a) => a.name === 'limit')) {
    const raw = typeof args.limit === 'number' ? args.limit : list ? MAX_LIMIT : DEFAULT_LIMIT;
    const limit = Math.min(Math.max(raw, 1), MAX_LIMIT);
    return list ? limit * (1 + childComplexity) : 1 + limit * childComplexity;
  }
  return 1 + childComplexity;
};

/** Depth of the operation, following fragments; introspection fields do not count. */
export function operationDepth(document: DocumentNode, operation: OperationDefinitionNode): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const depthOf = (set: SelectionSetNode | undefined, seen: Set<string>): number => {
    let max = 0;
    for (const s of set?.selections ?? []) {
      if (s.kind === Kind.FIELD) {
        if (s.name.value.startsWith('__')) continue;
        max = Math.max(max, 1 + depthOf(s.selectionSet, seen));
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        max = Math.max(max, depthOf(s.selectionSet, seen));
      } else if (!seen.has(s.name.value)) {
        // Validation already refused fragment cycles; `seen` only guards against them.
        max = Math.max(max, depthOf(fragments.get(s.name.value)?.selectionSet, new Set([...seen, s.name.value])));
      }
    }
    return max;
  };
  return depthOf(operation.selectionSet, new Set());
}

function refuse(message: string | AppError): GraphQLError {
  const app = typeof message === 'string' ? AppError.field('query', message) : message;
  // Apollo answers errors from didResolveOperation with 500 unless told otherwise.
  return new GraphQLError(app.message, { originalError: app, extensions: { code: app.code, http: { status: 400 } } });
}

type Measured = { depth: number; requested: number } | { error: string };

// Depth and cost depend on the document, the operation and the variables only, and Apollo keeps
// one parsed document per query text: measured once per document and variables (a few variable
// sets per document), not on every request.
const measuredByDocument = new WeakMap<DocumentNode, Map<string, Measured>>();
const VARIABLE_SETS_PER_DOCUMENT = 32;

function measure(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>, operationName: string | undefined): Measured {
  const compute = (): Measured => {
    const depth = operationDepth(document, operation);
    try {
      return { depth, requested: getComplexity({ schema, query: document, variables, operationName, estimators: [costEstimator] }) };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  };
  let key: string;
  try {
    key = `${operationName ?? ''}\n${JSON.stringify(variables)}`;
  } catch {
    return compute(); // variables that are no JSON (uploads): not cached
  }
  let byVariables = measuredByDocument.get(document);
  if (!byVariables) measuredByDocument.set(document, (byVariables = new Map()));
  let hit = byVariables.get(key);
  if (!hit) {
    hit = compute();
    if (byVariables.size >= VARIABLE_SETS_PER_DOCUMENT) byVariables.delete(byVariables.keys().next().value!);
    byVariables.set(key, hit);
  }
  return hit;
}

/**
 * Refuses operations deeper or costlier than the limits (400 VALIDATION_ERROR naming the limit)
 * and reports the cost of every operation in `extensions.cost`.
 */
export function limitsPlugin(limits: GraphQLLimits): ApolloServerPlugin {
  return {
    async requestDidStart() {
      let cost: QueryCost | undefined;
      return {
        async didResolveOperation({ request, document, schema, operation }) {
          if (!operation) return;
          // Variables that do not fit their types: 400 naming each field (before costing, which
          // needs them).
          const bad = variableErrors(schema, operation, request.variables ?? {});
          if (bad.length) throw refuse(AppError.validation(bad));
          const measured = measure(schema, document, operation, request.variables ?? {}, request.operationName ?? undefined);
          if ('error' in measured) throw refuse(`could not be costed: ${measured.error}`);
          const { depth, requested } = measured;
          cost = { requestedQueryCost: requested, maximumAvailable: limits.maxCost, depth, maximumDepth: limits.maxDepth };
          if (depth > limits.maxDepth) throw refuse(`is nested ${depth} levels deep; the maximum depth is ${limits.maxDepth}`);
          if (requested > limits.maxCost) {
            throw refuse(`costs ${requested}, more than the maximum of ${limits.maxCost}; ask for fewer records (lower limit arguments) or fewer nested lists`);
          }
        },
        async willSendResponse({ response }) {
          if (cost && response.body.kind === 'single') {
            response.body.singleResult.extensions = { ...response.body.singleResult.extensions, cost };
          }
        },
      };
    },
  };
}
