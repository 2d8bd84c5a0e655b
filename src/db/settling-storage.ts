import asyncHooks, { AsyncLocalStorage } from 'node:async_hooks';

// MikroORM runs three AsyncLocalStorage instances: the transaction of em.transactional, "inside a
// flush" (every em.flush) and the raw fragments of a findAndCount (a fourth, its RequestContext,
// is never run here). On Node 20, the first run() of
// any AsyncLocalStorage turns on a promise hook that stays on for the life of the process, and from
// then on every promise the process makes pays for it: 7-18% of a read's server CPU
// (docs/architecture.md, "Promise hooks"). A server turned it on with its first write or its first
// background task, so every request paid it from the start.
//
// Here MikroORM's storages are made as SettlingStorage: a storage that turns itself off again when
// the last of its runs has settled (the promise its callback returned, or the callback's return).
// A store is read only inside a run and the work it awaits (each of MikroORM's runs returns the
// promise of that work), so no read of a store finds it off. While any run is in progress, the hook
// is on for the whole process as before; with none, promises cost what they cost without it.

/** An AsyncLocalStorage that disables itself when its last run has settled (above). */
export class SettlingStorage<T> extends AsyncLocalStorage<T> {
  private running = 0;
  private readonly settle = (): void => {
    if (--this.running === 0) this.disable();
  };

  /** Whether the storage is on (Node's own flag): the promise hook is on while any storage is. */
  get active(): boolean {
    return (this as unknown as { enabled: boolean }).enabled;
  }

  override run<R>(store: T, callback: () => R): R;
  override run<R, A extends unknown[]>(store: T, callback: (...args: A) => R, ...args: A): R;
  override run<R, A extends unknown[]>(store: T, callback: (...args: A) => R, ...args: A): R {
    this.running++;
    let result: R;
    try {
      result = super.run(store, callback, ...args);
    } catch (err) {
      this.settle();
      throw err;
    }
    const then = (result as { then?: unknown } | null)?.then;
    if (typeof then === 'function') then.call(result, this.settle, this.settle);
    else this.settle();
    return result;
  }
}

/** MikroORM's storages, as made under loadSettlingOrm; none when MikroORM was loaded before (then require gave the module loaded). */
const storages: SettlingStorage<unknown>[] = [];

/**
 * Loads @mikro-orm/core with every AsyncLocalStorage it makes at load a SettlingStorage. Must run
 * before anything else loads MikroORM: the entry points import this module first.
 */
function loadSettlingOrm(): void {
  const exports = asyncHooks as { AsyncLocalStorage: typeof AsyncLocalStorage };
  // Only where AsyncLocalStorage runs on the promise hook (Node 20 and 22: its _enable and
  // _propagate); Node 24's runs on AsyncContextFrame, which has no hook to turn off.
  if (!hookBased()) return;
  class Recorded<T> extends SettlingStorage<T> {
    constructor() {
      super();
      storages.push(this as SettlingStorage<unknown>);
    }
  }
  exports.AsyncLocalStorage = Recorded;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('@mikro-orm/core');
  } finally {
    exports.AsyncLocalStorage = AsyncLocalStorage;
  }
}

/** Whether this Node's AsyncLocalStorage is the one on the promise hook. */
export const hookBased = (): boolean => {
  const proto = AsyncLocalStorage.prototype as unknown as Record<string, unknown>;
  return typeof proto._enable === 'function' && typeof proto._propagate === 'function';
};

loadSettlingOrm();

/**
 * MikroORM's storages (the transaction's, the flush's, the raw fragments', the request context's), each a SettlingStorage
 * (none on a Node without the hook); throws when MikroORM was loaded before this module (an entry
 * point that imports it too late).
 */
export function ormStorages(): readonly SettlingStorage<unknown>[] {
  if (!storages.length && hookBased()) throw new Error('MikroORM was loaded before src/db/settling-storage.ts: import it first in the entry point');
  return storages;
}
