import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';
import type { RequestContext } from '../../data/context';

/**
 * Who made a change, as events show it (docs/events.md). Each transaction records its actor in the
 * transaction-local setting `fsc.actor`, which the event triggers read; a transaction that sets
 * none (a raw SQL session, a migration, the demo seed) is the `system`.
 */
export interface Actor {
  type: 'api_key' | 'admin' | 'public_link' | 'stripe' | 'system';
  key_id: string | null;
  user_id: string | null;
  request_id: string | null;
}

export const SYSTEM_ACTOR: Actor = { type: 'system', key_id: null, user_id: null, request_id: null };

/** The actor of a request made with an API key. */
export function requestActor(ctx: Pick<RequestContext, 'key' | 'requestId'>): Actor {
  const user = (ctx.key as { user?: { id?: string } }).user;
  return { type: 'api_key', key_id: ctx.key.id, user_id: user?.id ?? null, request_id: ctx.requestId };
}

/** The admin CLI's actor. */
export const ADMIN_ACTOR: Actor = { type: 'admin', key_id: null, user_id: null, request_id: null };

/** `select set_config('fsc.actor', ?, true)`: for a transaction run outside MikroORM (raw `pg`), with actorSetting(actor). */
export const SET_ACTOR_SQL = `select set_config('fsc.actor', ?, true)`;

export const actorSetting = (actor: Actor): string => JSON.stringify(actor);

const ACTOR_KEY = 'eventActor';

/**
 * Every transaction begun on `em` (or on a fork of it made afterwards: em.transactional forks,
 * flushes) records `actor` as the author of its changes. Call it once, right after forking the
 * EntityManager for a request, a CLI command or a public-link page:
 * `actAs(em, { type: 'public_link', key_id: null, user_id: null, request_id })`.
 * It rides on the EntityManager's logger context, the one piece of per-EntityManager state that
 * MikroORM copies into every fork.
 */
export function actAs(em: EntityManager, actor: Actor): void {
  em.setLoggerContext({ ...em.getLoggerContext(), [ACTOR_KEY]: actor });
}

/** The actor `actAs` gave `em` (or the EntityManager it was forked from); undefined for none or the system. */
export function actorOf(em: Pick<EntityManager, 'getLoggerContext'>): Actor | undefined {
  const actor = (em.getLoggerContext() as Record<string, unknown>)[ACTOR_KEY] as Actor | undefined;
  return actor && actor.type !== 'system' ? actor : undefined;
}

/**
 * For a statement that may run in autocommit outside MikroORM's transactions (a one-statement
 * create): the CTE `"actor"` that sets the EntityManager's actor and its parameter, or null for the
 * system. The statement must read from "actor" so that the setting is made before its triggers run.
 */
export function actorCte(em: Pick<EntityManager, 'getLoggerContext'>): { sql: string; params: string[] } | null {
  const actor = actorOf(em);
  return actor ? actorCteOf(actor) : null;
}

/** The CTE `"actor"` that sets `actor`, for the first statement of a transaction begun on an EntityManager without one. */
export function actorCteOf(actor: Actor): { sql: string; params: string[] } {
  return { sql: `"actor" as (${SET_ACTOR_SQL})`, params: [actorSetting(actor)] };
}

/** Sets `fsc.actor` in each transaction MikroORM begins, from its EntityManager's actor (see actAs). */
export class EventActorSubscriber implements EventSubscriber {
  async afterTransactionStart({ em, transaction }: TransactionEventArgs): Promise<void> {
    const actor = actorOf(em as EntityManager);
    if (!actor) return;
    await (em as EntityManager).getConnection().execute(SET_ACTOR_SQL, [actorSetting(actor)], 'run', transaction, em.getLoggerContext());
  }
}
