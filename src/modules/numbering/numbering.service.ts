import type { RequestContext } from '../../data/context';
import { requireAddon } from '../../auth/addons';
import { AppError, ErrorDetail } from '../../errors/app-error';
import { DEFAULT_PADDING, DEFAULT_PREFIX, NUMBERED_KINDS, NumberedKind } from './numbering.format';
import type { NumberingKindInput, NumberingUpdateInput } from './numbering.inputs';
import { NumberingKindSettings, NumberingSettings } from './numbering.types';

// Per-company numbering of invoices and estimates (docs/estimates-and-numbering.md). One settings row per company
// and kind, locked FOR UPDATE by the statement that takes a number and until the create commits:
// numbers are unique under concurrency and a failed create (rolled back) uses up no number. Which
// number comes next (override, counter, taken numbers skipped) is decided by the SQL functions of
// migration 0007, for assignment and for the preview in the settings alike.

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

function documents(kind: NumberedKind): { table: string; column: string } {
  const where = registry.get(kind);
  if (!where) throw new Error(`numbered kind ${kind} is not registered`);
  return where;
}

/**
 * A number as the kind's settings format it (numbering_format, migration 0007: the one home of
 * the format) and whether some document of the kind already has it (deleted ones included).
 */
async function taken(ctx: RequestContext, kind: NumberedKind, s: Settings, n: number): Promise<{ formatted: string; taken: boolean }> {
  const { table, column } = documents(kind);
  const [row] = await exec<{ formatted: string; taken: boolean }>(
    ctx,
    `select f as formatted, numbering_taken(?, ?, ?, f) as taken from numbering_format(?, ?, ?) as f`,
    [ctx.company.uuid, table, column, s.prefix, s.padding, n],
  );
  return row;
}

/**
 * The formatted number the next document of the kind will get, given settings: the override
 * unless taken, else the first free number from the counter. The same SQL function
 * (`numbering_next`, migration 0007) as assignment uses, so the two cannot disagree.
 */
async function nextFormatted(ctx: RequestContext, kind: NumberedKind, s: Settings): Promise<string> {
  const { table, column } = documents(kind);
  const [row] = await exec<{ number: string }>(ctx, `select numbering_next(?, ?, ?, ?, ?, ?, ?) as number`, [
    ctx.company.uuid,
    table,
    column,
    s.prefix,
    s.padding,
    s.nextNumber,
    s.overrideNumber,
  ]);
  return row.number;
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
   * The settings row stays locked from here to commit: take the number last.
   */
  async assign(ctx: RequestContext, kind: NumberedKind): Promise<string> {
    if (!ctx.em.getTransactionContext()) throw new Error('numberingService.assign must run inside a transaction');
    const { sql, params } = this.assignSql(ctx, kind);
    const [row] = await exec<{ number: string }>(ctx, `select ${sql} as number`, params);
    return row.number;
  },

  /**
   * `assign` as an SQL expression, for the statement that inserts the document itself: the number
   * and the document then commit (or fail) together, and the settings row is locked only while
   * that statement runs (autocommit) or until its transaction ends.
   */
  assignSql(ctx: RequestContext, kind: NumberedKind): { sql: string; params: unknown[] } {
    // One function call (migration 0007): lock or create the settings row, the override or the
    // first free number from the counter, the counter moved past it.
    const { table, column } = documents(kind);
    return { sql: 'numbering_assign(?, ?, ?, ?, ?, ?)', params: [ctx.company.uuid, kind, table, column, DEFAULT_PREFIX[kind], DEFAULT_PADDING] };
  },

  async get(ctx: RequestContext): Promise<NumberingSettings> {
    const out = new NumberingSettings();
    for (const kind of NUMBERED_KINDS) out[kind] = await view(ctx, kind, await readSettings(ctx, kind, false));
    return out;
  },

  /** Locks the company's settings rows as update does (in its order), for If-Match. */
  async lock(ctx: RequestContext): Promise<void> {
    await ensureRows(ctx, NUMBERED_KINDS);
    for (const kind of NUMBERED_KINDS) await readSettings(ctx, kind, true);
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
          const check = await taken(tx, kind, s, o);
          if (check.taken) {
            details.push({ field: `${kind}.overrideNumber`, message: `${kind}.overrideNumber ${check.formatted} is already taken by another ${kind}` });
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
