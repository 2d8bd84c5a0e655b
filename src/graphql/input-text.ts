import type { ApolloServerPlugin } from '@apollo/server';
import { DocumentNode, GraphQLError, Kind, OperationDefinitionNode, ValueNode, visit } from 'graphql';
import { AppError, ErrorDetail } from '../errors/app-error';
import { JsonPath, jsonInputProblems, MAX_JSON_DEPTH, textProblem } from '../schema/json-input';
import { pathName, variableUses } from './input-errors';

// GraphQL's side of the checks where JSON enters (src/schema/json-input.ts): the variables (a JSON
// body, a GET's query string or a multipart request's operations) and the input values written in
// the document, before anything else reads them (the limits, the Idempotency-Key's hash, the
// resolvers' validation, PostgreSQL). 400 VALIDATION_ERROR naming each field as a bad variable is
// named (src/graphql/input-errors.ts): the path inside an input object, else the argument.

/** A path inside the value given for `field` (an argument or input field) → the name of the field at fault. */
const nameInside = (field: string) => (path: JsonPath) => (path.length === 0 || typeof path[0] === 'number' ? field + pathName(path) : pathName(path));

/** Problems of the variables, each named by the argument or input field the variable is passed to. */
export function variableTextProblems(operation: OperationDefinitionNode, variables: Record<string, unknown>): ErrorDetail[] {
  const usedAs = variableUses(operation);
  return jsonInputProblems(variables, (path) => (path.length ? nameInside(usedAs.get(String(path[0])) ?? String(path[0]))(path.slice(1)) : 'variables'));
}

// Apollo keeps one parsed document per query text: its literals are checked once.
const literalProblems = new WeakMap<DocumentNode, ErrorDetail[]>();

/** Problems of the input values written in a document (strings with NUL, values nested too deep). */
export function literalTextProblems(document: DocumentNode): ErrorDetail[] {
  let found = literalProblems.get(document);
  if (found) return found;
  const details: ErrorDetail[] = [];
  visit(document, {
    Argument(node) {
      const name = nameInside(node.name.value);
      const path: Array<string | number> = [];
      const walk = (value: ValueNode, depth: number): string | null => {
        if (value.kind === Kind.STRING) return textProblem(value.value);
        if (value.kind !== Kind.OBJECT && value.kind !== Kind.LIST) return null;
        if (depth > MAX_JSON_DEPTH) return (path.splice(1), `is nested more than ${MAX_JSON_DEPTH} levels deep`);
        const children: Array<[string | number, ValueNode]> = value.kind === Kind.LIST ? value.values.map((v, i) => [i, v]) : value.fields.map((f) => [f.name.value, f.value]);
        for (const [key, child] of children) {
          path.push(key);
          const problem = walk(child, depth + 1);
          if (problem) return problem;
          path.pop();
        }
        return null;
      };
      const problem = walk(node.value, 1);
      if (problem) details.push({ field: name(path), message: `${name(path)} ${problem}` });
      // Values are walked here, not by the visitor.
      return false;
    },
  });
  literalProblems.set(document, (found = details));
  return found;
}

/** Refuses, before anything reads them, variables and literals too deep or holding text PostgreSQL refuses. */
export function inputTextPlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, operation }) {
          if (!operation) return; // the limits refuse it
          const details = [...literalTextProblems(document), ...variableTextProblems(operation, request.variables ?? {})];
          if (!details.length) return;
          const app = AppError.validation(details);
          // Apollo answers errors from didResolveOperation with 500 unless told otherwise.
          throw new GraphQLError(app.message, { originalError: app, extensions: { code: app.code, http: { status: 400 } } });
        },
      };
    },
  };
}
