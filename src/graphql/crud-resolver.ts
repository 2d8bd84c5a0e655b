import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Info, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../data/context';
import type { ListInclude } from '../data/crud';
import { DeleteResult, Page, PageType } from '../schema/pagination';
import { UUIDScalar } from '../schema/scalars';
import { listPlan } from './prefetch';
import { Needs } from '../schema/access';
import type { Resource } from '../domain/scopes';

type Cls<T = any> = new () => T;

export interface CrudService<T, C, U, L> {
  list(ctx: RequestContext, args: L, include?: ListInclude): Promise<Page<T>>;
  get(ctx: RequestContext, uuid: string): Promise<T>;
  create(ctx: RequestContext, input: C): Promise<T>;
  update(ctx: RequestContext, uuid: string, input: U): Promise<T>;
  remove(ctx: RequestContext, uuid: string): Promise<{ message: string }>;
  restore(ctx: RequestContext, uuid: string): Promise<T>;
}

/**
 * The GraphQL operations of a resource (docs/access-and-operations.md): `x(uuid)`, `xs(...)`, `createX`,
 * `updateX`, `deleteX`, and `restoreX` of a soft-deleted record (docs/conventions.md). A resource's resolver extends this and adds its relation fields.
 */
export function CrudResolver<T, C, U, L>(o: {
  entity: Cls<T>;
  /** The resource its operations read and write (docs/people-and-access.md). */
  resource: Resource;
  single: string;
  plural: string;
  service: CrudService<T, C, U, L>;
  create: Cls<C>;
  update: Cls<U>;
  listArgs: Cls<L>;
}) {
  const name = o.entity.name;
  // Built now: TypeGraphQL reads its type registry before it calls return-type thunks.
  const PageCls = PageType(o.entity);
  const [read, write] = [`${o.resource}:read`, `${o.resource}:write`] as const;

  @Resolver()
  abstract class Crud {
    @Needs(read)
    @Query(() => o.entity, { name: o.single })
    one(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<T> {
      return o.service.get(ctx, uuid);
    }

    @Needs(read)

    @Query(() => PageCls, { name: o.plural })
    list(@Ctx() ctx: RequestContext, @Args(() => o.listArgs) args: L, @Info() info: GraphQLResolveInfo): Promise<Page<T>> {
      // What the selection reads of the items and their relations comes with the page (src/graphql/prefetch.ts).
      return o.service.list(ctx, args, listPlan(ctx.em, o.entity, info));
    }

    @Needs(write)

    @Mutation(() => o.entity, { name: `create${name}` })
    create(@Ctx() ctx: RequestContext, @Arg('input', () => o.create) input: C): Promise<T> {
      return o.service.create(ctx, input);
    }

    @Needs(write)

    @Mutation(() => o.entity, { name: `update${name}` })
    update(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string, @Arg('input', () => o.update) input: U): Promise<T> {
      return o.service.update(ctx, uuid, input);
    }

    @Needs(write)

    @Mutation(() => DeleteResult, { name: `delete${name}` })
    remove(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<{ message: string }> {
      return o.service.remove(ctx, uuid);
    }

    @Needs(write)

    @Mutation(() => o.entity, { name: `restore${name}` })
    restore(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<T> {
      return o.service.restore(ctx, uuid);
    }
  }
  return Crud;
}
