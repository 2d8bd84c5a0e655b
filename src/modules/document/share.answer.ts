import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../errors/app-error';
import { Estimate, EstimateSelectedTier, EstimateStatus } from '../estimate/estimate.entity';
import { reprice } from '../estimate/estimate.service';
import type { ShareTarget } from './share.service';
import type { Invoice } from '../invoice/invoice.entity';
import { createDeposit } from '../online-payment/deposit';

// The customer's answer to an estimate through its link (docs/documents.md): Accept with the
// signer's name (and a tier, priced by the server) or Decline with a reason. The estimate row is
// locked, so of two answers at once one succeeds and the other finds it answered (409).

/** What a change made through a customer link runs with: no API key and no user. */
export interface PublicLinkContext {
  em: EntityManager;
  companyId: string;
  actor: 'public_link';
}

/**
 * The one place where a customer link acts: the context it returns marks its changes as made by
 * actor `public_link` (not a user or key), which is what the event log records for them.
 */
export function asPublicLink(em: EntityManager, companyId: string): PublicLinkContext {
  return { em, companyId, actor: 'public_link' };
}

export interface AcceptInput {
  signerName: unknown;
  tier: unknown;
  ip: string | null;
  userAgent: string | null;
}

const TIERS = Object.values(EstimateSelectedTier) as string[];

function signerNameOf(v: unknown): string {
  const name = typeof v === 'string' ? v.trim() : '';
  if (!name) throw AppError.field('signer_name', 'is required: type your full name to accept');
  if (name.length > 255 || name.includes('\0')) throw AppError.field('signer_name', 'must be at most 255 characters');
  return name;
}

async function answer<T = Estimate>(em: EntityManager, target: ShareTarget, fn: (e: Estimate, now: Date) => void, after?: (tx: EntityManager, e: Estimate) => Promise<T>): Promise<T> {
  if (target.kind !== 'estimate') throw AppError.notFound('Estimate');
  return em.transactional(async (tx) => {
    const ctx = asPublicLink(tx as EntityManager, target.companyUuid);
    const e = await ctx.em.findOne(Estimate, { uuid: target.uuid, company: ctx.companyId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, filters: false });
    if (!e || e.deletedAt) throw AppError.notFound('Estimate');
    const now = new Date();
    if (e.storedStatus !== EstimateStatus.PENDING) throw AppError.conflict(`This estimate was already answered (${e.storedStatus})`);
    if (e.isExpired(now)) throw AppError.conflict('This estimate has expired');
    fn(e, now);
    e.respondedAt = now;
    await ctx.em.flush();
    return after ? after(ctx.em, e) : (e as T);
  });
}

/** Accepts the estimate; with a deposit asked (docs/payments.md), its invoice is made in the same transaction. */
export function acceptEstimate(em: EntityManager, target: ShareTarget, input: AcceptInput): Promise<{ estimate: Estimate; deposit: Invoice | null }> {
  const signer = signerNameOf(input.signerName);
  return answer(em, target, (e, now) => {
    if (e.pricingType === 'tiered') {
      const tier = typeof input.tier === 'string' ? input.tier : '';
      const offered = TIERS.includes(tier) && e.pricingSnapshot.tiers[tier as EstimateSelectedTier] !== null;
      if (!offered) throw AppError.field('tier', 'must be one of the options offered');
      // The server prices the chosen tier, from the estimate's own snapshot.
      e.selectedTier = tier as EstimateSelectedTier;
      reprice(e);
    }
    e.storedStatus = EstimateStatus.ACCEPTED;
    e.acceptance = { signer_name: signer, selected_tier: e.selectedTier, ip: input.ip, user_agent: input.userAgent?.slice(0, 1000) ?? null, accepted_at: now.toISOString() };
  }, async (tx, e) => ({ estimate: e, deposit: await createDeposit(tx, target.companyUuid, e) }));
}

export function declineEstimate(em: EntityManager, target: ShareTarget, reason: unknown): Promise<Estimate> {
  const text = typeof reason === 'string' ? reason.trim() : '';
  if (text.length > 10_000 || text.includes('\0')) throw AppError.field('reason', 'must be at most 10,000 characters');
  return answer(em, target, (e) => {
    e.storedStatus = EstimateStatus.DECLINED;
    e.responseNotes = text || null;
  });
}
