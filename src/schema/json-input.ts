import type { ErrorDetail } from '../errors/app-error';

// Checks of JSON where it enters (a REST body, GraphQL variables and the input values written in a
// document), before anything walks it recursively or hands its text to PostgreSQL: a value nested
// deeper than any real request (every recursive walk after this one is safe), and text PostgreSQL
// refuses (NUL, a lone UTF-16 surrogate), named by the path of the field that holds it.

/** Levels of objects and lists a request's JSON may nest (the body or variables object is level 1). */
export const MAX_JSON_DEPTH = 64;

/** NUL, or a UTF-16 surrogate that is not half of a pair (JSON's `"\ud800"`): not storable text. */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be stored as text, or null when it can. */
export function textProblem(s: string): string | null {
  if (!UNSTORABLE.test(s)) return null;
  return s.includes('\u0000') ? 'must not contain NUL characters' : 'must be valid Unicode text (it holds a lone UTF-16 surrogate)';
}

/** The same of an object's key. */
function keyProblem(key: string): string | null {
  if (!UNSTORABLE.test(key)) return null;
  return key.includes('\u0000') ? 'must not have a key with NUL characters' : 'must not have a key holding a lone UTF-16 surrogate';
}

/** A path inside a value: object keys and list indexes. */
export type JsonPath = ReadonlyArray<string | number>;

const isPlain = (v: object): boolean => {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * The problems of a parsed JSON value, at most one per top-level field: nesting deeper than
 * MAX_JSON_DEPTH (named by the top-level field; nothing deeper is walked), and unstorable text in
 * a string or a key (named by the path that holds it). `name` turns a path into the field's name
 * on the surface. Only plain objects and lists are walked (an upload's file object is not JSON).
 */
export function jsonInputProblems(root: unknown, name: (path: JsonPath) => string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const path: Array<string | number> = [];
  let failed = false;
  const report = (at: JsonPath, message: string) => {
    const field = name(at);
    details.push({ field, message: `${field} ${message}` });
    failed = true;
  };
  // Returns once the current top-level field has a problem (failed), so one is named per field.
  const walk = (value: unknown, depth: number): void => {
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) report(path, problem);
      return;
    }
    if (typeof value !== 'object' || value === null || !(Array.isArray(value) || isPlain(value))) return;
    if (depth > MAX_JSON_DEPTH) return report(path.slice(0, 1), `is nested more than ${MAX_JSON_DEPTH} levels deep`);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length && !failed; i++) {
        path.push(i);
        walk(value[i], depth + 1);
        path.pop();
      }
      return;
    }
    for (const key in value) {
      const problem = keyProblem(key);
      if (problem) return report(path, problem);
      path.push(key);
      walk((value as Record<string, unknown>)[key], depth + 1);
      path.pop();
      if (failed) return;
    }
  };
  if (typeof root === 'object' && root !== null && !Array.isArray(root) && isPlain(root)) {
    // One problem per top-level field.
    for (const key in root) {
      failed = false;
      const problem = keyProblem(key);
      if (problem) {
        report([], problem);
        continue;
      }
      path.push(key);
      walk((root as Record<string, unknown>)[key], 2);
      path.pop();
    }
  } else walk(root, 1);
  return details;
}
