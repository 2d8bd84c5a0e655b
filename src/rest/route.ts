import type { Request } from 'express';
import type { RequestContext } from '../core/context';
import type { Addon } from '../modules/company/company.entity';

type Cls = new () => any;

/** A summary of a related record embedded in REST responses (DECISIONS §2): fixed keys, and it
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
  /** Error responses beside the usual ones (OpenAPI), by HTTP status. */
  errors?: Record<string, string>;
  /** POST routes that create records honour Idempotency-Key. */
  creates?: boolean;
  call: (ctx: RequestContext, args: RouteArgs) => Promise<unknown>;
}
