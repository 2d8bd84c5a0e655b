import 'reflect-metadata';
import { Field, ID, InterfaceType } from 'type-graphql';

// Global ids of GraphQL objects (docs/conventions.md "Ids"): base64 of `Type:uuid` (a job photo:
// `JobPhoto:jobUuid:uuid`, so that it is found through its job as everywhere else). Stable: built
// from the record's type and keys, which never change.

export function toGlobalId(type: string, key: string): string {
  return Buffer.from(`${type}:${key}`, 'utf8').toString('base64');
}

/** The type and key of a global id; null when it is not one. */
export function fromGlobalId(id: string): { type: string; key: string } | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(id)) return null;
  const text = Buffer.from(id, 'base64').toString('utf8');
  const m = /^([A-Z][A-Za-z]*):(.+)$/.exec(text);
  // Re-encoding must give the id back: one id per record, no alternative spellings.
  if (!m || toGlobalId(m[1], m[2]) !== id) return null;
  return { type: m[1], key: m[2] };
}

/**
 * Gives an entity class its global id: an `id` getter that reads only its key columns (so that a
 * list's prefetch plan still reads just the columns selected, src/graphql/prefetch.ts).
 */
export function GlobalId(by: 'uuid' | 'jobUuid:uuid' = 'uuid'): ClassDecorator {
  return (cls) => {
    const type = cls.name;
    const get =
      by === 'uuid'
        ? function (this: { uuid: string }) {
            return toGlobalId(type, this.uuid);
          }
        : function (this: { uuid: string; jobUuid: string }) {
            return toGlobalId(type, `${this.jobUuid}:${this.uuid}`);
          };
    Object.defineProperty(cls.prototype, 'id', { get, configurable: true, enumerable: false });
  };
}

/** Every record type: refetched by `node(id)`, normalised by client caches by `id`. */
@InterfaceType({ description: 'A record with a global id: `node(id)` refetches it' })
export abstract class Node {
  @Field(() => ID, { description: 'Global id: base64 of `Type:uuid`; stable' })
  id!: string;
}
