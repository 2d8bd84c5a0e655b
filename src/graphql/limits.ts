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
import { DEFAULT_LIMIT, MAX_LIMIT } from '../schema/pagination';
import { AppError } from '../errors/app-error';
import { variableErrors } from './input-errors';

export interface GraphQLLimits {
  maxDepth: number;
  maxCost: number;
  /** Most fields an operation may select (aliases and repetitions counted, fragments expanded). */
  maxFields: number;
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

/** Depth and size of an operation: its deepest path and how many fields it selects. */
export interface OperationShape {
  /** Deepest field path (introspection fields do not count). */
  depth: number;
  /**
   * Fields selected, with fragments expanded wherever they are spread and every alias and
   * repetition counted: what an executor walks once per parent object.
   */
  fields: number;
}

/** The shape of an operation, following fragments (each fragment measured once, however often spread). */
export function operationShape(document: DocumentNode, operation: OperationDefinitionNode): OperationShape {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const measured = new Map<string, OperationShape>();
  const shapeOf = (set: SelectionSetNode | undefined, seen: Set<string>): OperationShape => {
    let depth = 0;
    let fields = 0;
    for (const s of set?.selections ?? []) {
      let inner: OperationShape;
      if (s.kind === Kind.FIELD) {
        fields += 1;
        if (s.name.value.startsWith('__')) continue;
        inner = shapeOf(s.selectionSet, seen);
        inner = { depth: inner.depth + 1, fields: inner.fields };
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        inner = shapeOf(s.selectionSet, seen);
      } else {
        const name = s.name.value;
        // Validation already refused fragment cycles; `seen` only guards against them.
        if (seen.has(name)) continue;
        let hit = measured.get(name);
        if (!hit) measured.set(name, (hit = shapeOf(fragments.get(name)?.selectionSet, new Set([...seen, name]))));
        inner = hit;
      }
      depth = Math.max(depth, inner.depth);
      fields += inner.fields;
    }
    return { depth, fields };
  };
  return shapeOf(operation.selectionSet, new Set());
}

function refuse(message: string | AppError): GraphQLError {
  const app = typeof message === 'string' ? AppError.field('query', message) : message;
  // Apollo answers errors from didResolveOperation with 500 unless told otherwise.
  return new GraphQLError(app.message, { originalError: app, extensions: { code: app.code, http: { status: 400 } } });
}

type Measured = { depth: number; fields: number; requested: number } | { error: string };

// Depth and cost depend on the document, the operation and the variables only, and Apollo keeps
// one parsed document per query text: measured once per document and variables (a few variable
// sets per document), not on every request.
const measuredByDocument = new WeakMap<DocumentNode, Map<string, Measured>>();
const VARIABLE_SETS_PER_DOCUMENT = 32;

function measure(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>, operationName: string | undefined): Measured {
  const compute = (): Measured => {
    const { depth, fields } = operationShape(document, operation);
    try {
      return { depth, fields, requested: getComplexity({ schema, query: document, variables, operationName, estimators: [costEstimator] }) };
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
          if (!operation) {
            // graphql-js would answer this only once executing (and the compiled path not at all).
            throw refuse(
              AppError.field(
                'operationName',
                request.operationName ? `names no operation of the document ("${request.operationName}")` : 'is required when the document holds more than one operation',
              ),
            );
          }
          // Variables that do not fit their types: 400 naming each field (before costing, which
          // needs them).
          const bad = variableErrors(schema, operation, request.variables ?? {});
          if (bad.length) throw refuse(AppError.validation(bad));
          const measured = measure(schema, document, operation, request.variables ?? {}, request.operationName ?? undefined);
          if ('error' in measured) throw refuse(`could not be costed: ${measured.error}`);
          const { depth, fields, requested } = measured;
          cost = { requestedQueryCost: requested, maximumAvailable: limits.maxCost, depth, maximumDepth: limits.maxDepth };
          if (fields > limits.maxFields) {
            throw refuse(`selects ${fields} fields (aliases, repetitions and fragments counted), more than the maximum of ${limits.maxFields}`);
          }
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
