// The metadata one field declaration (src/schema/fields.ts) records, read by validation, REST case
// mapping and the OpenAPI document. Types only: a module both the declarations and the validators
// they attach can import without importing each other.

export type FieldKind =
  | 'string' // trimmed, at most 255 characters
  | 'text' // notes and descriptions: at most 10,000 characters
  | 'uuid'
  | 'int'
  | 'number'
  | 'money' // ≥ 0, two decimals, in whole dollars on the wire
  | 'boolean'
  | 'date' // YYYY-MM-DD
  | 'datetime' // RFC 3339 in, ISO UTC out
  | 'time' // HH:MM
  | 'json'
  | 'enum'
  | 'phone'
  | 'email'
  | 'url' // an absolute http(s) URL, at most 2,000 characters
  | 'object'; // a nested class

export interface FieldOptions {
  /** May be null (outputs) / may be sent as null (inputs). */
  nullable?: boolean;
  /** Must be present in an input. */
  required?: boolean;
  list?: boolean;
  enum?: Record<string, string>;
  /** Nested class for kind 'object'. */
  type?: () => Function;
  description?: string;
  /** Only on GraphQL (relations resolved there) or only on REST. */
  graphql?: boolean;
  rest?: boolean;
  /** JSON: object only (default) or any JSON value. */
  jsonArray?: boolean;
  /**
   * A list of filters given in REST as parameters `<restName>.<key>=<values>` and
   * `<restName>.<key>[<op>]=<value>` (the custom-field filters `cf.<key>`): each becomes an element
   * `{key, values}` or `{key, <op>}` of the list (src/rest/case-map.ts).
   */
  prefixed?: boolean;
  /** JSON: any JSON value, a scalar too (a custom field's default). */
  jsonAny?: boolean;
  /** Normalisation applied to a string after trimming (e.g. upper-casing a state code). */
  transform?: (value: string) => string;
  /** Extra validation run after the type checks; returns an error message or null. */
  check?: (value: any, input: any) => string | null;
  /** Default documented in OpenAPI. */
  default?: unknown;
  min?: number;
  max?: number;
  /** A query field whose values depend on the listed entity (a list's `sort`): its enum in the OpenAPI document. */
  valuesFor?: (entity: Function) => string[];
  /**
   * An output field computed by a getter: the properties of the record it reads (columns,
   * many-to-one relations, or other fields with declared reads). A GraphQL list reads only the
   * columns its selected fields declare (src/graphql/prefetch.ts); an entity with a computed field
   * that declares none is read whole. test/graphql/prefetch.spec.ts holds the declarations to the getters.
   */
  reads?: readonly string[];
}

export interface FieldMeta extends FieldOptions {
  prop: string;
  restName: string;
  kind: FieldKind;
  io: 'in' | 'out';
}
