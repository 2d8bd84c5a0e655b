import type { ApolloServerPlugin } from '@apollo/server';
import {
  DocumentNode,
  FragmentDefinitionNode,
  getNamedType,
  GraphQLError,
  GraphQLField,
  GraphQLNamedType,
  GraphQLSchema,
  isInterfaceType,
  isObjectType,
  Kind,
  OperationDefinitionNode,
  SelectionSetNode,
} from 'graphql';
import type { RequestContext } from '../data/context';
import type { Resource, Scope } from '../domain/scopes';
import { missingScope } from '../auth/require-scope';
import { AppError } from '../errors/app-error';

// The GraphQL side of "access is declared where the operation is declared": root fields carry
// `@Needs(...)`, resource types `@ShowsResource(...)` (src/schema/access.ts). One check per
// operation, before execution, for graphql-jit's compiled queries and graphql-js alike.

/** The scopes a field declares (`@Needs`), or undefined. */
export function declaredScopes(field: GraphQLField<unknown, unknown>): Scope[] | undefined {
  return field.extensions?.scope as Scope[] | undefined;
}

/** The resource a type shows (`@ShowsResource`), or undefined. */
export function resourceOf(type: GraphQLNamedType | null | undefined): Resource | undefined {
  return type && (isObjectType(type) || isInterfaceType(type)) ? (type.extensions?.resource as Resource | undefined) : undefined;
}

/** What a field needs: its own declaration, else the read of the resource its type shows. */
function fieldNeeds(field: GraphQLField<unknown, unknown>): Scope[] {
  const declared = declaredScopes(field);
  if (declared) return declared;
  const resource = resourceOf(getNamedType(field.type));
  return resource ? [`${resource}:read`] : [];
}

/**
 * Every scope an operation needs: each selected field's (skip and include directives aside: a
 * field that may be skipped is counted), through fragments, and the resource of each fragment's type.
 */
export function operationScopes(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): Scope[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const out = new Set<Scope>();
  const spread = new Set<string>();
  const typed = (name: string | undefined, current: GraphQLNamedType) => {
    const type = name ? schema.getType(name) : current;
    const resource = resourceOf(type);
    if (resource) out.add(`${resource}:read`);
    return type ?? current;
  };
  const visit = (type: GraphQLNamedType, set: SelectionSetNode) => {
    if (!isObjectType(type) && !isInterfaceType(type)) return;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        const field = type.getFields()[s.name.value];
        if (!field) continue; // __typename, introspection
        for (const scope of fieldNeeds(field)) out.add(scope);
        if (s.selectionSet) visit(getNamedType(field.type), s.selectionSet);
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        visit(typed(s.typeCondition?.name.value, type), s.selectionSet);
      } else if (!spread.has(s.name.value) && fragments.has(s.name.value)) {
        spread.add(s.name.value);
        const f = fragments.get(s.name.value)!;
        visit(typed(f.typeCondition.name.value, type), f.selectionSet);
      }
    }
  };
  const root = operation.operation === 'query' ? schema.getQueryType() : operation.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
  if (root) visit(root, operation.selectionSet);
  return [...out];
}

// Apollo keeps one parsed document per query text: its scopes are found once per document and operation.
const scopesByDocument = new WeakMap<DocumentNode, Map<string, Scope[]>>();

function scopesOf(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): Scope[] {
  let byName = scopesByDocument.get(document);
  if (!byName) scopesByDocument.set(document, (byName = new Map()));
  const key = operation.name?.value ?? '';
  let scopes = byName.get(key);
  if (!scopes) byName.set(key, (scopes = operationScopes(schema, document, operation)));
  return scopes;
}

/** 403 PERMISSION_DENIED before execution when the caller lacks a scope the operation needs. */
export function accessPlugin(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, contextValue }) {
          if (!operation) return;
          const missing = missingScope(contextValue, scopesOf(schema, document, operation));
          if (!missing) return;
          const err = AppError.permissionDenied(missing);
          throw new GraphQLError(err.message, { originalError: err, extensions: { code: err.code, http: { status: 403 } } });
        },
      };
    },
  };
}

/**
 * Checks the declarations when the schema is built (a root field without `@Needs` stops the build)
 * and writes each root field's scope into its description, and each resource type's.
 */
export function describeAccess(schema: GraphQLSchema): void {
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const scopes = declaredScopes(field);
      if (!scopes) throw new Error(`${root!.name}.${field.name} declares no scope: add @Needs(...) (docs/people-and-access.md)`);
      field.description = withNeeds(field.description, scopes.length ? `Needs ${scopes.join(' and ')}.` : 'Needs no scope.');
    }
  }
  for (const type of Object.values(schema.getTypeMap())) {
    const resource = resourceOf(type);
    if (resource && !type.name.startsWith('__')) type.description = withNeeds(type.description, `Reading it needs ${resource}:read.`);
  }
}

const withNeeds = (description: string | null | undefined, needs: string) => (description ? `${description.replace(/\.?$/, '.')} ${needs}` : needs);
