import { createSourceEventStream, execute, getOperationAST, Kind, print, visit, type ExecutionArgs, type ExecutionResult, type FieldNode } from 'graphql';
import { toRest } from '../../rest/case-map';
import { Event } from '../event/event.types';
import { Subscriber } from './live.subscriber';
import type { LiveItem } from './live.types';

// Rendering a live event once for all its subscribers (docs/live-updates.md). The hub hands the
// same item object to every subscriber of the company that its filter and key let through; what
// a subscriber is sent depends only on that item and on the subscription's selection, never on
// who subscribed (the `events` field reads its root value, not the context: a field that read the
// context could not be shared like this) nor on the `events` field's own arguments (they choose
// which events a subscriber gets, not how one is written). So each item is executed once per
// distinct selection, and its SSE text written once, and every subscriber gets that result.
// Items of a subscriber's own catch-up are objects of its own: they render for it alone.

type Rendered = Promise<ExecutionResult> | ExecutionResult;

const executions = new WeakMap<object, Map<string, Rendered>>();
const sseTexts = new WeakMap<object, string>();

/**
 * A subscription of the feed as graphql-ws runs it: its subscriber (the `events` field's source
 * stream) and how each of its events renders. The events are not yielded one by one: the transport
 * takes them from the subscriber in batches and writes them itself (src/graphql/ws.ts). As an
 * iterator it yields nothing and finishes when the subscription ends; `return` (the client's
 * `complete`, a closed socket) ends it.
 */
export class LiveOperation implements AsyncIterableIterator<ExecutionResult> {
  constructor(
    readonly subscriber: Subscriber,
    /** The item's result for this subscription's selection: shared with every subscription of the same one. */
    readonly render: (item: LiveItem) => Rendered,
  ) {}

  async next(): Promise<IteratorResult<ExecutionResult>> {
    await this.subscriber.whenEnded();
    return { value: undefined, done: true };
  }

  async return(): Promise<IteratorResult<ExecutionResult>> {
    await this.subscriber.return();
    return { value: undefined, done: true };
  }

  async throw(err?: unknown): Promise<IteratorResult<ExecutionResult>> {
    await this.subscriber.return();
    throw err;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<ExecutionResult> {
    return this;
  }
}

/**
 * What a rendering depends on: the operation with its root fields' arguments left out, and the
 * values of the variables the rest of it uses (a directive's `if`). Subscribers that resume from
 * different cursors or filter other types share their renderings.
 */
export function renderKey(args: ExecutionArgs): string {
  const operation = getOperationAST(args.document, args.operationName);
  const roots = new Set<FieldNode>(operation?.selectionSet.selections.filter((s): s is FieldNode => s.kind === Kind.FIELD));
  const selection = visit(args.document, { Field: (node) => (roots.has(node) ? { ...node, arguments: [] } : undefined) });
  const used = new Set<string>();
  visit(selection, { VariableDefinition: () => false, Variable: (node) => void used.add(node.name.value) });
  const values = [...used].sort().map((name) => [name, args.variableValues?.[name]]);
  return `${args.operationName ?? ''}\n${JSON.stringify(values)}\n${print(selection)}`;
}

/**
 * graphql-ws's `subscribe` (src/graphql/ws.ts): graphql's own source stream, which for every
 * subscription field of the schema is a live Subscriber (LiveResolver), and an item's rendering
 * that an item already executed for the same selection (renderKey) gives again instead of a new
 * execution. A subscription that fails to start answers its errors, as graphql's `subscribe` does.
 */
export async function liveSubscribe(args: ExecutionArgs): Promise<LiveOperation | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source;
  if (!(source instanceof Subscriber)) throw new Error('a subscription field must stream a live Subscriber (src/modules/live/live.resolver.ts)');
  const key = renderKey(args);
  return new LiveOperation(source, (item) => {
    let results = executions.get(item);
    if (!results) executions.set(item, (results = new Map()));
    let result = results.get(key);
    if (!result) {
      const executed = execute({ ...args, rootValue: item });
      results.set(key, (result = executed));
      // Settled, the result itself: later subscribers write it without waiting a turn.
      if (executed instanceof Promise) void executed.then((value) => void results.set(key, value));
    }
    return result;
  });
}

/** The SSE `data:` of an item (the event as GET /api/v1/events shows it), written once per item. */
export function sseData(item: LiveItem): string {
  let text = sseTexts.get(item);
  if (text === undefined) sseTexts.set(item, (text = JSON.stringify(toRest(Event, item.event))));
  return text;
}
