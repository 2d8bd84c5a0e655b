import { InputType, ObjectType } from 'type-graphql';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../data/context';
import { runStatement } from '../../data/prepared';
import { ApiField, InputField } from '../../schema/fields';
import { linkBase } from '../document/document.settings';
import { stripe } from './stripe.client';

// A company's online-payment settings (docs/payments.md): the Stripe connected account it is paid
// into, the methods offered, the deposit asked when an estimate is accepted on its page.

const ACCOUNT = /^acct_[A-Za-z0-9]{1,64}$/;

@ObjectType('PaymentSettings')
export class PaymentSettings {
  @ApiField('stripe_account_id', 'string', { nullable: true, description: 'The Stripe connected account (acct_…) payments go to' }) stripeAccountId!: string | null;
  @ApiField('accept_card', 'boolean') acceptCard!: boolean;
  @ApiField('accept_ach', 'boolean', { description: 'US bank account (ACH): Pending until the bank confirms' }) acceptAch!: boolean;
  @ApiField('deposit_percent', 'number', { description: 'Share of an estimate asked as a deposit when the customer accepts it on its page (0: none)' }) depositPercent!: number;
  @ApiField('pass_fees', 'boolean') passFees!: boolean;
}

@InputType('PaymentSettingsInput')
export class PaymentSettingsInput {
  @InputField('stripe_account_id', 'string', { nullable: true, check: (v: string | null) => (v === null || ACCOUNT.test(v) ? null : 'must be a Stripe account id (acct_…)') })
  stripeAccountId?: string | null;
  @InputField('accept_card', 'boolean', { default: true }) acceptCard?: boolean;
  @InputField('accept_ach', 'boolean', { default: false }) acceptAch?: boolean;
  @InputField('deposit_percent', 'number', { default: 0, check: (v: number) => (v >= 0 && v <= 100 && Math.round(v * 100) === v * 100 ? null : 'must be between 0 and 100 (two decimals at most)'), description: '0–100' })
  depositPercent?: number;
  @InputField('pass_fees', 'boolean', { default: false }) passFees?: boolean;
}

@ObjectType('PaymentOnboardingLink')
export class PaymentOnboardingLink {
  @ApiField('url', 'string', { description: "Stripe's onboarding page for the company's connected account" }) url!: string;
  @ApiField('expires_at', 'datetime') expiresAt!: Date;
}

interface Row {
  stripe_account_id: string | null;
  accept_card: boolean;
  accept_ach: boolean;
  deposit_percent: string;
  pass_fees: boolean;
}

const SELECT = `select stripe_account_id, accept_card, accept_ach, deposit_percent::text, pass_fees from payment_settings where company_uuid = ?`;

function exec<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  return em.getConnection().execute(sql, params, 'all', em.getTransactionContext()) as Promise<T[]>;
}

const toSettings = (r: Row | undefined): PaymentSettings =>
  Object.assign(new PaymentSettings(), {
    stripeAccountId: r?.stripe_account_id ?? null,
    acceptCard: r?.accept_card ?? true,
    acceptAch: r?.accept_ach ?? false,
    depositPercent: r ? Number(r.deposit_percent) : 0,
    passFees: r?.pass_fees ?? false,
  });

/** The settings of a company (defaults when it never set them). */
export async function paymentSettingsOf(em: EntityManager, companyUuid: string): Promise<PaymentSettings> {
  return toSettings((await exec<Row>(em, SELECT, [companyUuid]))[0]);
}

/**
 * The company each connected account belonged to when this process last read it: a hint for the
 * usual Stripe event, whose one statement checks it (stripe_first_payment, migration 0044), never
 * trusted for anything else. Bounded: emptied when it holds 10,000 accounts.
 */
const seenAccounts = new Map<string, string>();

/** The company whose connected account is `account`, or null, read now. */
export async function companyOfAccount(em: EntityManager, account: string): Promise<string | null> {
  // Prepared (src/data/prepared.ts): asked by Stripe events.
  const [row] = await runStatement<{ company_uuid: string }[]>(em, `select company_uuid from payment_settings where stripe_account_id = ?`, [account]);
  if (!row) seenAccounts.delete(account);
  else {
    if (seenAccounts.size >= 10_000) seenAccounts.clear();
    seenAccounts.set(account, row.company_uuid);
  }
  return row?.company_uuid ?? null;
}

/** The company `account` belonged to when this process last read it (companyOfAccount): a hint, see seenAccounts. */
export function companyOfAccountSeen(account: string): string | undefined {
  return seenAccounts.get(account);
}

async function save(ctx: RequestContext, s: PaymentSettings): Promise<PaymentSettings> {
  const [row] = await exec<Row>(
    ctx.em,
    `insert into payment_settings (company_uuid, stripe_account_id, accept_card, accept_ach, deposit_percent, pass_fees) values (?, ?, ?, ?, ?, ?)
     on conflict (company_uuid) do update set stripe_account_id = excluded.stripe_account_id, accept_card = excluded.accept_card, accept_ach = excluded.accept_ach,
       deposit_percent = excluded.deposit_percent, pass_fees = excluded.pass_fees, updated_at = now()
     returning stripe_account_id, accept_card, accept_ach, deposit_percent::text, pass_fees`,
    [ctx.companyId, s.stripeAccountId, s.acceptCard, s.acceptAch, s.depositPercent, s.passFees],
  );
  return toSettings(row);
}

export const paymentSettingsService = {
  get(ctx: RequestContext): Promise<PaymentSettings> {
    stripe();
    return paymentSettingsOf(ctx.em, ctx.companyId);
  },

  /** PUT: the fields sent replace the stored ones; the others keep their values. */
  async update(ctx: RequestContext, input: PaymentSettingsInput): Promise<PaymentSettings> {
    stripe();
    const current = await paymentSettingsOf(ctx.em, ctx.companyId);
    const next = Object.assign(current, Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)));
    return save(ctx, next);
  },

  /**
   * A Stripe Account Link onboarding the company's connected account; a company without one gets
   * a new Express account first (kept in its settings).
   */
  async onboardingLink(ctx: RequestContext): Promise<PaymentOnboardingLink> {
    const client = stripe();
    const settings = await paymentSettingsOf(ctx.em, ctx.companyId);
    if (!settings.stripeAccountId) {
      const account = await client.accounts.create({ type: 'express', metadata: { company_uuid: ctx.companyId } }, { idempotencyKey: `account-${ctx.companyId}` });
      settings.stripeAccountId = account.id;
      await save(ctx, settings);
    }
    const back = `${linkBase(ctx.baseUrl)}/api/v1/companies/me/payment_settings`;
    const link = await client.accountLinks.create({ account: settings.stripeAccountId, type: 'account_onboarding', refresh_url: back, return_url: back });
    return Object.assign(new PaymentOnboardingLink(), { url: link.url, expiresAt: new Date(link.expires_at * 1000) });
  },
};
