import { ArgsType, Field, ObjectType } from 'type-graphql';
import { AppError } from '../errors/app-error';
import { ApiField, InputField } from './fields';
import { sortValuesOf } from './sorting';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;
/** The last page a list serves (docs/conventions.md): past it, `page` is a 400, not a huge offset. */
export const MAX_PAGE = 1_000_000;

@ArgsType()
export class ListArgs {
  @InputField('page', 'int', { min: 1, max: MAX_PAGE, check: (v) => (v < 1 ? 'must be at least 1' : v > MAX_PAGE ? `must be at most ${MAX_PAGE}` : null) })
  page?: number;

  @InputField('limit', 'int', { min: 1, check: (v) => (v >= 1 ? null : 'must be at least 1') })
  limit?: number;

  @InputField('include_deleted', 'boolean')
  includeDeleted?: boolean;

  // The values each list takes are declared on its entity (src/schema/sorting.ts).
  @InputField('sort', 'string', {
    nullable: true,
    description: 'A sortable field, `-` in front for descending (e.g. -updated_at); ties by uuid',
    valuesFor: sortValuesOf,
  })
  sort?: string | null;

  @InputField('updated_since', 'datetime', { nullable: true, description: 'Only records with updated_at at or after this instant' })
  updatedSince?: Date | null;
}

@ObjectType()
export class Pagination {
  @ApiField('page', 'int') page!: number;
  @ApiField('limit', 'int') limit!: number;
  @ApiField('total', 'int') total!: number;
  @ApiField('total_pages', 'int') totalPages!: number;
}

export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

/** page and limit after defaults and clamping (limit above 100 becomes 100). */
export function pageWindow(args: ListArgs): { page: number; limit: number; offset: number } {
  const page = args.page ?? 1;
  const limit = Math.min(args.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  return { page, limit, offset: (page - 1) * limit };
}

/** Relation lists (GraphQL `customer.jobs(limit)`, …) take `limit`: default and maximum 100 (docs/access-and-operations.md). */
export function relationLimit(limit: number): number {
  if (limit < 1) throw AppError.field('limit', 'must be at least 1');
  return Math.min(limit, MAX_LIMIT);
}

export function pageOf<T>(items: T[], total: number, page: number, limit: number): Page<T> {
  return { items, pagination: Object.assign(new Pagination(), { page, limit, total, totalPages: Math.ceil(total / limit) }) };
}

const pageTypes = new Map<Function, Function>();

/** The GraphQL `XPage {items, pagination}` type of a resource. */
export function PageType<T>(cls: new () => T): new () => Page<T> {
  const hit = pageTypes.get(cls);
  if (hit) return hit as new () => Page<T>;
  @ObjectType(`${cls.name}Page`)
  class ResourcePage {
    @Field(() => [cls]) items!: T[];
    @Field(() => Pagination) pagination!: Pagination;
  }
  pageTypes.set(cls, ResourcePage);
  return ResourcePage;
}

@ObjectType()
export class DeleteResult {
  @ApiField('message', 'string') message!: string;
}
