import {
  coerceInputValue,
  GraphQLError,
  GraphQLSchema,
  isInputType,
  isNonNullType,
  Kind,
  OperationDefinitionNode,
  parse,
  typeFromAST,
  visit,
} from 'graphql';
import type { ErrorDetail } from '../errors/app-error';

// A bad input value names the field it was sent for (docs/conventions.md: "400 naming the field"), with
// the GraphQL (camelCase) name: `isVip`, `lineItems[0].unitPrice`, `uuid`. graphql-js only says so
// in prose, so these helpers recover the name from the value's path or position.

/** `['lineItems', 0, 'unitPrice']` → `lineItems[0].unitPrice`. */
export function pathName(path: ReadonlyArray<string | number>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');
}

const MISSING = /^Field "(?:[^".]+\.)?([^".]+)" of required type "[^"]+" was not provided\.?$/;
const UNKNOWN = /^Field "([^"]+)" is not defined by type "[^"]+"\./;

/** A detail for a field named by graphql-js's message, else for `field`. */
function detail(field: string, message: string): ErrorDetail {
  const missing = MISSING.exec(message);
  if (missing) {
    const name = field ? `${field}.${missing[1]}` : missing[1];
    return { field: name, message: `${name} is required` };
  }
  const unknown = UNKNOWN.exec(message);
  if (unknown) {
    const name = field ? `${field}.${unknown[1]}` : unknown[1];
    return { field: name, message: `${name} is not a known field` };
  }
  return { field, message: `${field} is invalid: ${message}` };
}

// Apollo keeps one parsed document per query text, so an operation's variable uses are found once.
const uses = new WeakMap<OperationDefinitionNode, Map<string, string>>();

/** Each variable of an operation → the argument or input field it is first passed to. */
export function variableUses(operation: OperationDefinitionNode): Map<string, string> {
  let usedAs = uses.get(operation);
  if (usedAs) return usedAs;
  const found = new Map<string, string>();
  visit(operation, {
    Argument(node) {
      if (node.value.kind === Kind.VARIABLE && !found.has(node.value.name.value)) found.set(node.value.name.value, node.name.value);
    },
    ObjectField(node) {
      if (node.value.kind === Kind.VARIABLE && !found.has(node.value.name.value)) found.set(node.value.name.value, node.name.value);
    },
  });
  uses.set(operation, (usedAs = found));
  return usedAs;
}

/**
 * The variables of an operation that do not fit their declared types, each named by the field it
 * is for: a path inside an input object (`isVip`), else the argument the variable is passed to.
 * Empty when all variables coerce.
 */
export function variableErrors(schema: GraphQLSchema, operation: OperationDefinitionNode, variables: Record<string, unknown>): ErrorDetail[] {
  if (!operation.variableDefinitions?.length) return [];
  const usedAs = variableUses(operation);
  const details: ErrorDetail[] = [];
  for (const def of operation.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    const type = typeFromAST(schema, def.type);
    if (!type || !isInputType(type)) continue; // document validation reports it
    const field = usedAs.get(name) ?? name;
    const present = Object.prototype.hasOwnProperty.call(variables, name);
    if (!present || variables[name] === null) {
      if (isNonNullType(type) && !(def.defaultValue && !present)) details.push({ field, message: `${field} is required` });
      continue;
    }
    // Inside an input object the path names the field; a bad value of its own is the argument's.
    coerceInputValue(variables[name], type, (path, _invalid, error) => {
      const d = detail(typeof path[0] === 'number' ? field + pathName(path) : pathName(path), error.message);
      details.push(d.field ? d : { field, message: `${field} is invalid: ${error.message}` });
    });
  }
  return details;
}

/**
 * The field a document validation error is about, when it is about an input value written in the
 * document (`createCustomer(input: {isVip: "yes"})`): the argument or input field holding it.
 */
export function literalErrorDetail(error: GraphQLError): ErrorDetail | null {
  if (MISSING.test(error.message) || UNKNOWN.test(error.message)) return detail('', error.message);
  const argument = /^Field "[^"]+" argument "([^"]+)" of type "[^"]+" is required, but it was not provided\.$/.exec(error.message);
  if (argument) return { field: argument[1], message: `${argument[1]} is required` };
  const start = error.nodes?.[0]?.loc?.start;
  const source = error.source;
  if (start === undefined || !source) return null;
  let field: string | null = null;
  try {
    visit(parse(source), {
      Argument(node) {
        if (node.value.loc?.start === start) field = node.name.value;
      },
      ObjectField(node) {
        if (node.value.loc?.start === start) field = node.name.value;
      },
    });
  } catch {
    return null;
  }
  if (!field) return null;
  return { field, message: `${field} is invalid: ${error.message}` };
}
