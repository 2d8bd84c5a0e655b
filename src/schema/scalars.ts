import { GraphQLError, GraphQLScalarType, Kind, ValueNode } from 'graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { isDateOnly, isUuid, parseTimestamp } from '../domain/values';

function literalString(ast: ValueNode, name: string): string {
  if (ast.kind !== Kind.STRING) throw new GraphQLError(`${name} must be a string`);
  return ast.value;
}

/** A literal's parse error carries its node, so that it has a location and names its field. */
function atNode<T>(ast: ValueNode, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof GraphQLError && !err.nodes) throw new GraphQLError(err.message, { nodes: ast });
    throw err;
  }
}

function parseUuid(v: unknown): string {
  if (!isUuid(v)) throw new GraphQLError(`invalid UUID: ${String(v)}`);
  return v.toLowerCase();
}

export const UUIDScalar = new GraphQLScalarType({
  name: 'UUID',
  description: 'A UUID in its canonical text form',
  serialize: (v) => String(v),
  parseValue: parseUuid,
  parseLiteral: (ast) => atNode(ast, () => parseUuid(literalString(ast, 'UUID'))),
});

function parseDateTime(v: unknown): Date {
  const d = parseTimestamp(v);
  if (!d) throw new GraphQLError('DateTime must be an RFC 3339 timestamp with an offset, e.g. 2026-11-21T14:03:00Z');
  return d;
}

export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: 'UTC timestamp with milliseconds on output; RFC 3339 with an offset on input',
  serialize: (v) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString()),
  parseValue: parseDateTime,
  parseLiteral: (ast) => atNode(ast, () => parseDateTime(literalString(ast, 'DateTime'))),
});

function parseDate(v: unknown): string {
  if (!isDateOnly(v)) throw new GraphQLError('Date must be YYYY-MM-DD');
  return v;
}

export const DateScalar = new GraphQLScalarType({
  name: 'Date',
  description: 'A calendar date, YYYY-MM-DD',
  serialize: (v) => String(v),
  parseValue: parseDate,
  parseLiteral: (ast) => atNode(ast, () => parseDate(literalString(ast, 'Date'))),
});

export const JSONScalar = GraphQLJSON;
