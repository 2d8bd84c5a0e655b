import { MAX_CENTS, multiply, percentOf, toCents } from '../../domain/money';
import { AppError } from '../../errors/app-error';

// The one pricing function of estimates (docs/estimates-and-numbering.md), shared by preview, create and update.
// Pure: integer cents in, integer cents out; the tax is rounded once, half away from zero.

export type Tier = 'good' | 'better' | 'best';
export type AdjustmentKey = 'base_amount' | 'addons_amount' | 'tax_amount';
export const ADJUSTMENT_KEYS: AdjustmentKey[] = ['base_amount', 'addons_amount', 'tax_amount'];

/** The template prices an estimate is computed from (an estimate keeps its own copy). */
export interface PricingSnapshot {
  pricing_type: 'flat' | 'tiered';
  base_price_cents: number | null;
  tiers: Record<Tier, number | null>;
  addons: { id: string; name: string; price_cents: number }[];
  /** Percent with at most 4 decimals. */
  tax_rate: number;
}

export interface PricingInput {
  selectedTier?: Tier | null;
  /** > 0, at most 4 decimals. */
  quantity: number;
  selectedAddons?: string[] | null;
  /** Adjusted amounts in cents, replacing the computed ones. */
  adjustments?: Partial<Record<AdjustmentKey, number>> | null;
}

export interface PricingResult {
  baseCents: number;
  addonsCents: number;
  taxCents: number;
  totalCents: number;
  /** Before adjustments: the base and the selected add-ons as computed from the template. */
  computedBaseCents: number;
  addons: { name: string; priceCents: number }[];
  applied: Partial<Record<AdjustmentKey, number>>;
}

export function priceEstimate(s: PricingSnapshot, input: PricingInput): PricingResult {
  let unitCents: number;
  if (s.pricing_type === 'tiered') {
    if (!input.selectedTier) throw AppError.field('selectedTier', 'is required for a tiered template');
    const price = s.tiers[input.selectedTier];
    if (price === null || price === undefined) throw AppError.field('selectedTier', `"${input.selectedTier}" has no price in this template`);
    unitCents = price;
  } else {
    if (input.selectedTier) throw AppError.field('selectedTier', 'applies to tiered templates only');
    unitCents = s.base_price_cents ?? 0;
  }
  const computedBaseCents = multiply(unitCents, input.quantity);

  const addons: PricingResult['addons'] = [];
  const seen = new Set<string>();
  for (const id of input.selectedAddons ?? []) {
    const addon = s.addons.find((a) => a.id === id);
    if (!addon) throw AppError.field('selectedAddons', `"${id}" is not an add-on of this template`);
    if (seen.has(id)) throw AppError.field('selectedAddons', `"${id}" is selected more than once`);
    seen.add(id);
    addons.push({ name: addon.name, priceCents: addon.price_cents });
  }
  // Add-ons are per estimate: not multiplied by the quantity.
  const computedAddonsCents = addons.reduce((sum, a) => sum + a.priceCents, 0);

  const adj = input.adjustments ?? {};
  const applied: PricingResult['applied'] = {};
  for (const k of ADJUSTMENT_KEYS) if (adj[k] !== undefined && adj[k] !== null) applied[k] = adj[k];

  const baseCents = applied.base_amount ?? computedBaseCents;
  const addonsCents = applied.addons_amount ?? computedAddonsCents;
  // The tax follows the adjusted base and add-ons unless it is adjusted itself.
  const taxCents = applied.tax_amount ?? percentOf(baseCents + addonsCents, s.tax_rate);
  const totalCents = baseCents + addonsCents + taxCents;
  if (totalCents > MAX_CENTS) throw AppError.field('totalAmount', 'would be above 9,999,999,999.99');
  return { baseCents, addonsCents, taxCents, totalCents, computedBaseCents, addons, applied };
}

// The amounts' GraphQL names (baseAmount, …) are accepted for the keys of the contract (base_amount, …).
const ADJUSTMENT_ALIASES: Record<string, AdjustmentKey> = { baseAmount: 'base_amount', addonsAmount: 'addons_amount', taxAmount: 'tax_amount' };

/**
 * Adjustments under the keys of the contract (what is stored and shown): a camelCase key becomes
 * its snake_case one. Anything else is returned as sent, for adjustmentsToCents to refuse.
 */
export function canonicalAdjustments<T extends Record<string, unknown> | null | undefined>(v: T): T {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const keys = Object.keys(v).map((k) => ADJUSTMENT_ALIASES[k] ?? k);
  if (new Set(keys).size !== keys.length) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [ADJUSTMENT_ALIASES[k] ?? k, x])) as T;
}

/** Adjustments as sent (dollars, keys of ADJUSTMENT_KEYS or their camelCase) into cents; an error message when malformed. */
export function adjustmentsToCents(v: Record<string, unknown>): Partial<Record<AdjustmentKey, number>> | string {
  const out: Partial<Record<AdjustmentKey, number>> = {};
  for (const [sent, amount] of Object.entries(v)) {
    const k = ADJUSTMENT_ALIASES[sent] ?? sent;
    if (!(ADJUSTMENT_KEYS as string[]).includes(k)) return `may only hold ${ADJUSTMENT_KEYS.join(', ')} (not "${sent}")`;
    if (k in out || (amount === null && Object.keys(v).some((o) => o !== sent && (ADJUSTMENT_ALIASES[o] ?? o) === k))) return `holds ${k} twice`;
    if (amount === null) continue;
    const c = typeof amount === 'number' ? toCents(amount) : null;
    if (c === null || c < 0 || c > MAX_CENTS) return `${k} must be an amount ≥ 0 with at most two decimals`;
    out[k as AdjustmentKey] = c;
  }
  return out;
}
