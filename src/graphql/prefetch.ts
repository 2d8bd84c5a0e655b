import {
  DocumentNode,
  FieldNode,
  getNamedType,
  getNullableType,
  GraphQLField,
  GraphQLObjectType,
  GraphQLResolveInfo,
  isListType,
  isObjectType,
  Kind,
  OperationDefinitionNode,
  SelectionSetNode,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { EntityMetadata, ReferenceKind } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Related } from '../data/list';
import { isRead } from '../data/columns';
import { fieldReads } from '../schema/fields';

type Cls = new (...args: any[]) => any;

// What a GraphQL list query will read of its records, so that the list loads it with its page in
// one statement (src/data/list.ts leanList) and nothing more:
//
// - Relations: under the page's `items`, a field whose type is an entity that the listed entity
//   refers to through exactly one many-to-one (`Invoice.customer`: by `customer`), or a list of an
//   entity that refers to the listed one through exactly one many-to-one (`Invoice.payments`:
//   payments by `invoice`). They are loaded with the page and primed in the request's loaders,
//   where the relation fields' resolvers find them.
// - Properties: of each entity type, the columns that the fields selected on that type anywhere in
//   the operation read: a column property itself, the properties a computed field declares it
//   reads (`@ApiField(…, { reads: [...] })`, followed through other fields' declarations), a
//   relation field's many-to-one. A type with any field that is none of these (a value a resolver
//   or service computes, such as a photo's signed URL) is read whole. A pruned record leaves the other properties
//   undefined: test/graphql/prefetch.spec.ts asks every field of every listed type, alone and with
//   its relations, and compares with the records read whole.

export interface ListPlan {
  related: Related[];
  /** The listed entity's properties to read; null: all. */
  props: string[] | null;
}

/** Per field node of a parsed operation (Apollo keeps one parsed document per query text). */
const plans = new WeakMap<FieldNode, { fragments: GraphQLResolveInfo['fragments']; plan: ListPlan }>();

export function listPlan(em: EntityManager, entity: Cls, info: GraphQLResolveInfo): ListPlan {
  const node = info.fieldNodes[0];
  const cached = plans.get(node);
  if (cached && cached.fragments === info.fragments) return cached.plan;
  const plan: ListPlan = { related: [], props: null };
  const pageType = getNamedType(info.returnType);
  const itemsField = isObjectType(pageType) ? pageType.getFields().items : undefined;
  const itemType = itemsField && getNamedType(itemsField.type);
  const meta = em.getMetadata().find(entity.name);
  if (itemType && isObjectType(itemType) && meta) {
    const byType = fieldsByType(info);
    plan.props = propsOf(em, meta, itemType, byType);
    const names = new Set<string>();
    for (const items of fieldsUnder(info.fieldNodes, 'items', info)) for (const f of fieldsUnder([items], null, info)) names.add(f.name.value);
    for (const name of names) {
      const field = itemType.getFields()[name];
      const rel = field && relationOf(em, meta, field);
      if (!rel || rel === 'unknown') continue;
      const targetType = getNamedType(field.type) as GraphQLObjectType;
      const props = propsOf(em, em.getMetadata().find(targetType.name)!, targetType, byType);
      if (!plan.related.some((r) => r.kind === rel.kind && r.prop === rel.prop)) plan.related.push({ ...rel, props });
    }
  }
  plans.set(node, { fragments: info.fragments, plan });
  return plan;
}

/**
 * The entity relation a field of `meta`'s type stands for: 'one' through the single many-to-one
 * to the field's entity type, 'children' through the field entity's single many-to-one to
 * `meta`; 'unknown' for an entity-typed field that matches no single relation; null for a field
 * whose type is not an entity.
 */
function relationOf(em: EntityManager, meta: EntityMetadata, field: GraphQLField<unknown, unknown>): Related | 'unknown' | null {
  const named = getNamedType(field.type);
  const target = isObjectType(named) ? em.getMetadata().find(named.name) : undefined;
  if (!target) return null;
  if (isListType(getNullableType(field.type))) {
    const back = target.props.filter((p) => p.kind === ReferenceKind.MANY_TO_ONE && p.targetMeta === meta);
    return back.length === 1 ? { kind: 'children', entity: target.class, prop: back[0].name } : 'unknown';
  }
  const to = meta.props.filter((p) => p.kind === ReferenceKind.MANY_TO_ONE && p.targetMeta === target);
  return to.length === 1 ? { kind: 'one', prop: to[0].name } : 'unknown';
}

// A column property (src/data/columns.ts), read as such.
const isColumn = isRead;

const readsByClass = new WeakMap<Function, Map<string, readonly string[]>>();

/** The computed fields of a class that declare what they read (src/schema/fields.ts fieldReads), by property. */
function declaredReads(cls: Function): Map<string, readonly string[]> {
  let found = readsByClass.get(cls);
  if (!found) readsByClass.set(cls, (found = fieldReads(cls)));
  return found;
}

/** Adds the columns that reading `name` off a record takes; false when that is not declared. */
function readsOf(meta: EntityMetadata, name: string, out: Set<string>, seen: Set<string>): boolean {
  if (seen.has(name)) return true;
  seen.add(name);
  const prop = (meta.properties as Record<string, any>)[name];
  if (prop && isColumn(prop)) {
    out.add(name);
    return true;
  }
  const reads = declaredReads(meta.class).get(name);
  if (!reads) return false;
  for (const read of reads) if (!readsOf(meta, read, out, seen)) return false;
  return true;
}

/** The columns every field of `type` selected in the operation reads, or null (all of them). */
function propsOf(em: EntityManager, meta: EntityMetadata, type: GraphQLObjectType, byType: Map<string, Set<string>>): string[] | null {
  if (!prunable(em, meta, type)) return null;
  const out = new Set<string>();
  for (const name of byType.get(type.name) ?? []) {
    if (name === '__typename') continue;
    const rel = relationOf(em, meta, type.getFields()[name]);
    if (rel === 'unknown') return null;
    if (rel?.kind === 'one') out.add(rel.prop);
    else if (!rel && !readsOf(meta, name, out, new Set())) return null;
  }
  return [...out].sort();
}

const prunables = new WeakMap<EntityMetadata, boolean>();

/** Every field of the type is a column, a getter or method over columns, or a relation. */
function prunable(em: EntityManager, meta: EntityMetadata, type: GraphQLObjectType): boolean {
  let ok = prunables.get(meta);
  if (ok === undefined) {
    ok = Object.values(type.getFields()).every((f) => {
      const rel = relationOf(em, meta, f);
      return rel ? rel !== 'unknown' : readsOf(meta, f.name, new Set(), new Set());
    });
    prunables.set(meta, ok);
  }
  return ok;
}

/** The fields selected on each object type anywhere in the operation and its fragments. */
const selections = new WeakMap<OperationDefinitionNode, Map<string, Set<string>>>();

function fieldsByType(info: GraphQLResolveInfo): Map<string, Set<string>> {
  let byType = selections.get(info.operation);
  if (!byType) {
    const found = new Map<string, Set<string>>();
    const typeInfo = new TypeInfo(info.schema);
    const doc: DocumentNode = { kind: Kind.DOCUMENT, definitions: [info.operation, ...Object.values(info.fragments)] };
    visit(
      doc,
      visitWithTypeInfo(typeInfo, {
        Field(node) {
          const parent = typeInfo.getParentType();
          if (!parent) return;
          if (!found.has(parent.name)) found.set(parent.name, new Set());
          found.get(parent.name)!.add(node.name.value);
        },
      }),
    );
    selections.set(info.operation, (byType = found));
  }
  return byType;
}

/** The fields selected under `parents` (through fragments), only those named `name` if given. */
function fieldsUnder(parents: readonly FieldNode[], name: string | null, info: GraphQLResolveInfo): FieldNode[] {
  const out: FieldNode[] = [];
  const walk = (set: SelectionSetNode | undefined) => {
    for (const sel of set?.selections ?? []) {
      if (sel.kind === Kind.FIELD) {
        if (name === null || sel.name.value === name) out.push(sel);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) walk(sel.selectionSet);
      else if (sel.kind === Kind.FRAGMENT_SPREAD) walk(info.fragments[sel.name.value]?.selectionSet);
    }
  };
  for (const p of parents) walk(p.selectionSet);
  return out;
}
