import type { RequestContext } from '../../core/context';
import { requireAddon } from '../../auth/addons';
import { AppError, ErrorDetail } from '../../errors/app-error';
import { DEFAULT_PADDING, DEFAULT_PREFIX, formatNumber, NUMBERED_KINDS, NumberedKind } from './numbering.format';
import type { NumberingKindInput, NumberingUpdateInput } from './numbering.inputs';
import { NumberingKindSettings, NumberingSettings } from './numbering.types';

// Per-company numbering of invoices and estimates (DECISIONS §10). One settings row per company
// and kind, locked FOR UPDATE inside the creating transaction: numbers are unique under
// concurrency and a failed create (rolled back) uses up no number.

interface Row {
  prefix: string;
  padding: number;
  next_number: string | number;
  override_number: string | number | null;
}

interface Settings {
  prefix: string;
  padding: number;
  nextNumber: number;
  overrideNumber: number | null;
}

/** Where the formatted numbers of a kind live, for "is this number taken" (deleted ones too). */
const registry = new Map<NumberedKind, { table: string; column: string }>();

export function registerNumberedKind(kind: NumberedKind, where: { table: string; column: string }): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(where.table) || !/^[a-z_][a-z0-9_]*$/.test(where.column)) throw new Error('bad numbered table/column');
  registry.set(kind, where);
}

function exec<T = any>(ctx: RequestContext, sql: string, params: unknown[]): Promise<T[]> {
  return ctx.em.getConnection().execute(sql, params, 'all', ctx.em.getTransactionContext()) as Promise<T[]>;
}

function toSettings(row: Row): Settings {
  return {
    prefix: row.prefix,
    padding: Number(row.padding),
    nextNumber: Number(row.next_number),
    overrideNumber: row.override_number === null ? null : Number(row.override_number),
  };
}

async function ensureRows(ctx: RequestContext, kinds: NumberedKind[]): Promise<void> {
  // Race-safe creation with the defaults: concurrent first uses insert once.
  for (const kind of kinds) {
    await exec(
      ctx,
      `insert into numbering_settings (company_uuid, kind, prefix, padding, next_number) values (?, ?, ?, ?, 1)
       on conflict (company_uuid, kind) do nothing`,
      [ctx.company.uuid, kind, DEFAULT_PREFIX[kind], DEFAULT_PADDING],
    );
  }
}

async function readSettings(ctx: RequestContext, kind: NumberedKind, lock: boolean): Promise<Settings> {
  const rows = await exec<Row>(
    ctx,
    `select prefix, padding, next_number, override_number from numbering_settings where company_uuid = ? and kind = ?${lock ? ' for update' : ''}`,
    [ctx.company.uuid, kind],
  );
  if (rows.length) return toSettings(rows[0]);
  return { prefix: DEFAULT_PREFIX[kind], padding: DEFAULT_PADDING, nextNumber: 1, overrideNumber: null };
}

/** Which of these formatted numbers some document of the kind already has (deleted ones included). */
async function takenAmong(ctx: RequestContext, kind: NumberedKind, numbers: string[]): Promise<Set<string>> {
  const where = registry.get(kind);
  if (!where || !numbers.length) return new Set();
  const rows = await exec<{ n: string }>(
    ctx,
    `select ${where.column} as n from ${where.table} where company_uuid = ? and ${where.column} in (?)`,
    [ctx.company.uuid, numbers],
  );
  return new Set(rows.map((r) => r.n));
}

/** The first number ≥ `from` whose formatted string is free, checked in windows of 50. */
async function firstFree(ctx: RequestContext, kind: NumberedKind, s: Settings, from: number): Promise<number> {
  for (let start = from; ; start += 50) {
    const candidates = Array.from({ length: 50 }, (_, i) => start + i);
    const taken = await takenAmong(ctx, kind, candidates.map((n) => formatNumber(s.prefix, s.padding, n)));
    const free = candidates.find((n) => !taken.has(formatNumber(s.prefix, s.padding, n)));
    if (free !== undefined) return free;
  }
}

/** The formatted number the next document of the kind will get, given settings. */
async function nextFormatted(ctx: RequestContext, kind: NumberedKind, s: Settings): Promise<string> {
  if (s.overrideNumber !== null) {
    const o = formatNumber(s.prefix, s.padding, s.overrideNumber);
    if (!(await takenAmong(ctx, kind, [o])).size) return o;
  }
  return formatNumber(s.prefix, s.padding, await firstFree(ctx, kind, s, s.nextNumber));
}

async function view(ctx: RequestContext, kind: NumberedKind, s: Settings): Promise<NumberingKindSettings> {
  return Object.assign(new NumberingKindSettings(), {
    prefix: s.prefix,
    padding: s.padding,
    nextNumber: s.nextNumber,
    nextNumberFormatted: await nextFormatted(ctx, kind, s),
    hasOverride: s.overrideNumber !== null,
  });
}

function merged(current: Settings, input: NumberingKindInput | null | undefined): Settings {
  if (!input) return current;
  return {
    // An empty (or null) prefix means numbers without one.
    prefix: input.prefix === undefined ? current.prefix : (input.prefix ?? ''),
    padding: input.padding ?? current.padding,
    nextNumber: input.nextNumber ?? current.nextNumber,
    overrideNumber: input.overrideNumber === undefined ? current.overrideNumber : input.overrideNumber,
  };
}

export const numberingService = {
  /**
   * Assigns the next number of a kind. Call it inside the creating transaction, with a context
   * whose `em` is the transaction's: `ctx.em.transactional((em) => numberingService.assign({ ...ctx, em }, 'invoice'))`.
   * The pending override wins (and is cleared) unless it has been taken meanwhile; else the
   * counter, skipping numbers already taken, and the counter moves past the number given.
   */
  async assign(ctx: RequestContext, kind: NumberedKind): Promise<string> {
    if (!ctx.em.getTransactionContext()) throw new Error('numberingService.assign must run inside a transaction');
    await ensureRows(ctx, [kind]);
    const s = await readSettings(ctx, kind, true);
    if (s.overrideNumber !== null) {
      const o = formatNumber(s.prefix, s.padding, s.overrideNumber);
      // The override is one-time: cleared whether used or (taken meanwhile) dropped.
      await exec(ctx, `update numbering_settings set override_number = null, updated_at = now() where company_uuid = ? and kind = ?`, [ctx.company.uuid, kind]);
      if (!(await takenAmong(ctx, kind, [o])).size) return o;
    }
    const n = await firstFree(ctx, kind, s, s.nextNumber);
    await exec(ctx, `update numbering_settings set next_number = ?, updated_at = now() where company_uuid = ? and kind = ?`, [n + 1, ctx.company.uuid, kind]);
    return formatNumber(s.prefix, s.padding, n);
  },

  async get(ctx: RequestContext): Promise<NumberingSettings> {
    const out = new NumberingSettings();
    for (const kind of NUMBERED_KINDS) out[kind] = await view(ctx, kind, await readSettings(ctx, kind, false));
    return out;
  },

  /** Needs the custom_numbering add-on. All or nothing: a rejected request changes nothing. */
  async update(ctx: RequestContext, input: NumberingUpdateInput): Promise<NumberingSettings> {
    requireAddon(ctx, 'custom_numbering');
    return ctx.em.transactional(async (em) => {
      const tx: RequestContext = { ...ctx, em };
      // Locked in a fixed order (invoice, estimate), so concurrent updates cannot deadlock.
      await ensureRows(tx, NUMBERED_KINDS);
      const next: Partial<Record<NumberedKind, Settings>> = {};
      const details: ErrorDetail[] = [];
      for (const kind of NUMBERED_KINDS) {
        const s = merged(await readSettings(tx, kind, true), input[kind]);
        const o = input[kind]?.overrideNumber;
        if (o !== undefined && o !== null) {
          const formatted = formatNumber(s.prefix, s.padding, o);
          if ((await takenAmong(tx, kind, [formatted])).size) {
            details.push({ field: `${kind}.overrideNumber`, message: `${kind}.overrideNumber ${formatted} is already taken by another ${kind}` });
          }
        }
        next[kind] = s;
      }
      if (details.length) throw AppError.validation(details);
      const out = new NumberingSettings();
      for (const kind of NUMBERED_KINDS) {
        const s = next[kind]!;
        if (input[kind]) {
          await exec(
            tx,
            `update numbering_settings set prefix = ?, padding = ?, next_number = ?, override_number = ?, updated_at = now()
             where company_uuid = ? and kind = ?`,
            [s.prefix, s.padding, s.nextNumber, s.overrideNumber, ctx.company.uuid, kind],
          );
        }
        out[kind] = await view(tx, kind, s);
      }
      return out;
    });
  },
};
