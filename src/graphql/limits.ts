import type { ApolloServerPlugin } from '@apollo/server';
import {
  DocumentNode,
  FragmentDefinitionNode,
  getNamedType,
  getNullableType,
  GraphQLError,
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
          const depth = operationDepth(document, operation);
          let requested: number;
          try {
            requested = getComplexity({ schema, query: document, variables: request.variables ?? {}, operationName: request.operationName ?? undefined, estimators: [costEstimator] });
          } catch (err) {
            throw refuse(`could not be costed: ${err instanceof Error ? err.message : String(err)}`);
          }
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
