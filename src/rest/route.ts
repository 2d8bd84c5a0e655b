import type { Request } from 'express';
import type { RequestContext } from '../data/context';
import type { Addon } from '../modules/company/company.entity';
import type { ListInclude } from '../data/crud';
import type { Scope } from '../domain/scopes';

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
  /** What the caller needs to see the summary (its resource's read); without it the summary is null. */
  scope: Scope;
}

export interface RouteArgs<B = any, Q = any> {
  params: Record<string, string>;
  body: B;
  query: Q;
  /** The HTTP request (REST only: an MCP tool call has none; routes that read it are not tools). */
  req?: Request;
  /** A list route's embedded summaries, to load with its page (referencedInclude, src/data/crud.ts). */
  include?: ListInclude;
}

/** The answer of a stream route: written to the response as it is read, with backpressure. */
export interface StreamAnswer {
  contentType: string;
  /** The attachment's file name (Content-Disposition). */
  filename: string;
  /** Writes the whole file to `out`; resolves when done. */
  write(out: NodeJS.WritableStream): Promise<void>;
}

/** One REST route: a row of the route table. */
export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Express path under /api/v1, e.g. `/customers/:uuid`. */
  path: string;
  summary: string;
  /**
   * What the route needs (docs/people-and-access.md): a resource and read or write; several when it
   * writes more than one resource (converting an estimate makes a job). The router checks it before
   * anything of the request is read; the OpenAPI document shows it as `x-required-scope`.
   */
  scope: Scope | readonly Scope[];
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
  /**
   * A route that streams a file (an export, docs/import-export.md): the content type of each
   * `format` it writes; its call returns a StreamAnswer.
   */
  stream?: Record<string, string>;
  /** A list route with no `/export` twin (its records are not business data: keys, endpoints). */
  exportable?: false;
  /** A GET that answers a page rather than one record (the event feed): no ETag, as lists. */
  page?: boolean;
  /** The success status when not 200: 202 for work accepted and done in the background (an import). */
  status?: 202;
  /**
   * A PUT that creates or updates (by external id, docs/custom-fields.md): its call returns
   * `{ record, created }`; the answer is the record, 201 when it was created, else 200.
   */
  upsert?: boolean;
  /** POST routes that create records honour Idempotency-Key. */
  creates?: boolean;
  /**
   * PUT/DELETE with If-Match: locks the record the route changes, as the service's own update does
   * (default: the row of the GET twin's entity named by the last path parameter).
   */
  lock?: (ctx: RequestContext, params: Record<string, string>) => Promise<void>;
  call: (ctx: RequestContext, args: RouteArgs) => Promise<unknown>;
}
