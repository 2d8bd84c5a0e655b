// Passing Stripe's fee to the customer (docs/payments.md, `pass_fees`): the checkout adds a line
// "Processing fee" such that, after Stripe's standard US fee on the whole charge, the company
// receives the amount it asked for. Checkout fixes one total before the customer picks a method,
// so the fee is that of the dearest method offered: the card's when cards are accepted.

/** Stripe's standard US card pricing: 2.9% + 30¢ of the charge. */
export const CARD_FEE = { percent: 2.9, fixedCents: 30 } as const;
/** Stripe's US bank account (ACH Direct Debit) pricing: 0.8% of the charge, at most $5.00. */
export const ACH_FEE = { percent: 0.8, capCents: 500 } as const;

/** The fee added to `cents` so that the charge less Stripe's fee on it is at least `cents`. */
export function passedFeeCents(cents: number, methods: { card: boolean; ach: boolean }): number {
  if (cents <= 0) return 0;
  if (methods.card || !methods.ach) return Math.ceil(((cents + CARD_FEE.fixedCents) * 1000) / (1000 - CARD_FEE.percent * 10)) - cents;
  return Math.min(Math.ceil((cents * 1000) / (1000 - ACH_FEE.percent * 10)) - cents, ACH_FEE.capCents);
}

/** Stripe's fee on a charge of `cents` (what the formula above covers). */
export function stripeFeeCents(cents: number, method: 'card' | 'ach'): number {
  if (method === 'card') return Math.round((cents * CARD_FEE.percent) / 100) + CARD_FEE.fixedCents;
  return Math.min(Math.round((cents * ACH_FEE.percent) / 100), ACH_FEE.capCents);
}
