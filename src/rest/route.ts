import type { Request } from 'express';
import type { RequestContext } from '../data/context';
import type { Addon } from '../modules/company/company.entity';

type Cls = new () => any;

/** A summary of a related record embedded in REST responses (docs/conventions.md): fixed keys, and it
 * resolves soft-deleted targets too. */
export interface Embed {
  key: string;
  /** Reads the related record's id off the returned entity. */
  id: (record: any) => string | null | undefined;
  entity: Cls;
  /** REST names of the related record's fields to show. */
  fields: string[];
}

export interface RouteArgs<B = any, Q = any> {
  params: Record<string, string>;
  body: B;
  query: Q;
  req: Request;
}

/** One REST route: a row of the route table. */
export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Express path under /api/v1, e.g. `/customers/:uuid`. */
  path: string;
  summary: string;
  /** OpenAPI operationId, when the one derived from method and path does not read well. */
  operationId?: string;
  /** List routes: the name of the array in `data`, beside `pagination`. */
  plural?: string;
  /** Class of the JSON body, validated like the GraphQL input. */
  body?: Cls;
  /** Class of the query-string parameters (lists). */
  query?: Cls;
  /** Class whose declared fields shape `data` (or each item of a list). */
  output: Cls;
  /** Embedded summaries: on every item of a list, or on the single record. */
  embed?: Embed[];
  /** Property of `output` holding a list of records that get the `embed` summaries instead. */
  embedIn?: string;
  /** Multipart routes parse their own bodies (photo upload). */
  multipart?: { fields: Record<string, string | Record<string, unknown>> };
  /** Add-on the company needs (403 ADDON_REQUIRED before the body is read). */
  addon?: Addon;
  /** A route that answers a file (a PDF) with an ETag instead of JSON: its call returns a FileResult. */
  file?: string;
  /** POST routes that create records honour Idempotency-Key. */
  creates?: boolean;
  /**
   * PUT/DELETE with If-Match: locks the record the route changes, as the service's own update does
   * (default: the row of the GET twin's entity named by the last path parameter).
   */
  lock?: (ctx: RequestContext) => Promise<void>;
  call: (ctx: RequestContext, args: RouteArgs) => Promise<unknown>;
}
