import './quiet';
// Second: MikroORM's async storages, made before anything loads MikroORM (src/db/settling-storage.ts).
import '../db/settling-storage';
import 'reflect-metadata';
import { loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { initOrm, migrate, Orm } from '../db/orm';
import { AppError } from '../errors/app-error';
import { actAs, ADMIN_ACTOR } from '../modules/event/event.actor';
import type { UsagePeriod } from '../modules/api-key/api-key.entity';
import type { UserRole } from '../modules/user/user.entity';
import { createCompany, createKey, createUser, keyView, listKeys, parseAddons, revokeKey, setAddons } from '../modules/company/company.admin';

// Admin CLI (docs/access-and-operations.md): `npm run --silent admin -- <command> --flag value …`. Every command
// prints one JSON object on stdout and exits 0; a failure prints {"error":{code,message}} and exits 1.

type Flags = Record<string, string>;

// The CLI's changes are the admin's in the event log (docs/events.md).
function adminEm(orm: Orm) {
  const em = orm.em.fork();
  actAs(em, ADMIN_ACTOR);
  return em;
}

const USAGE = 'commands: create-company, create-user, create-key, revoke-key, set-addons, list-keys';

function parseFlags(argv: string[]): Flags {
  const flags: Flags = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new AppError('VALIDATION_ERROR', `unexpected argument "${a}"`);
    const eq = a.indexOf('=');
    if (eq > 0) flags[a.slice(2, eq)] = a.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new AppError('VALIDATION_ERROR', `${a} needs a value`);
      flags[a.slice(2)] = next;
      i++;
    }
  }
  return flags;
}

function need(flags: Flags, name: string): string {
  const v = flags[name];
  if (v === undefined) throw new AppError('VALIDATION_ERROR', `--${name} is required`);
  return v;
}

function only(flags: Flags, allowed: string[]): void {
  const extra = Object.keys(flags).filter((f) => !allowed.includes(f));
  if (extra.length) throw new AppError('VALIDATION_ERROR', `unknown option(s): ${extra.map((f) => `--${f}`).join(', ')}`);
}

const commands: Record<string, (orm: Orm, f: Flags) => Promise<object>> = {
  'create-company': async (orm, f) => {
    only(f, ['name', 'email', 'addons']);
    const { company, user, apiKey } = await createCompany(adminEm(orm), { name: need(f, 'name'), email: need(f, 'email'), addons: parseAddons(f.addons) });
    return { company: { uuid: company.uuid, name: company.name, addons: company.addons }, user: { id: user.id }, api_key: apiKey };
  },
  'create-user': async (orm, f) => {
    only(f, ['company', 'first-name', 'last-name', 'email', 'role']);
    const user = await createUser(adminEm(orm), { companyUuid: need(f, 'company'), firstName: need(f, 'first-name'), lastName: need(f, 'last-name'), email: f.email, role: f.role as UserRole | undefined });
    return { user: { id: user.id, first_name: user.firstName, last_name: user.lastName, email: user.email, role: user.role } };
  },
  'create-key': async (orm, f) => {
    only(f, ['company', 'user', 'name', 'scopes', 'allow-ip', 'usage-limit', 'usage-period']);
    if ((f['usage-limit'] === undefined) !== (f['usage-period'] === undefined)) {
      throw new AppError('VALIDATION_ERROR', '--usage-limit and --usage-period go together');
    }
    const limit = f['usage-limit'];
    if (limit !== undefined && !/^\d+$/.test(limit)) throw new AppError('VALIDATION_ERROR', '--usage-limit must be a positive whole number');
    const { apiKey, key } = await createKey(adminEm(orm), {
      companyUuid: need(f, 'company'),
      userId: f.user,
      name: f.name,
      scopes: f.scopes?.split(',').map((s) => s.trim()).filter(Boolean),
      allowIps: f['allow-ip']?.split(',').map((s) => s.trim()).filter(Boolean),
      usageLimit: limit === undefined ? undefined : Number(limit),
      usagePeriod: f['usage-period'] as UsagePeriod | undefined,
    });
    return { api_key: apiKey, key: keyView(key) };
  },
  'revoke-key': async (orm, f) => {
    only(f, ['key']);
    return { key: keyView(await revokeKey(adminEm(orm), need(f, 'key'))) };
  },
  'set-addons': async (orm, f) => {
    only(f, ['company', 'addons']);
    const company = await setAddons(adminEm(orm), need(f, 'company'), parseAddons(need(f, 'addons'))!);
    return { company: { uuid: company.uuid, name: company.name, addons: company.addons } };
  },
  'list-keys': async (orm, f) => {
    only(f, ['company']);
    return { keys: (await listKeys(adminEm(orm), need(f, 'company'))).map(keyView) };
  },
};

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  const run = commands[command ?? ''];
  if (!run) throw new AppError('VALIDATION_ERROR', command ? `unknown command "${command}"; ${USAGE}` : USAGE);
  const flags = parseFlags(rest);
  const config = loadConfig();
  // Reaches the embedded database the server runs, or starts it for the duration of the command.
  const db = await openDatabase(config);
  const orm = await initOrm(db.url, 2, config.debugSql);
  try {
    if (config.migrate) await migrate(orm);
    process.stdout.write(JSON.stringify(await run(orm, flags)) + '\n');
    return 0;
  } finally {
    await orm.close(true);
    await db.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    const e = err instanceof AppError ? err : null;
    const code = e?.code ?? 'INTERNAL';
    const message = e?.details?.[0]?.message ?? (err instanceof Error ? err.message : String(err));
    process.stdout.write(JSON.stringify({ error: { code, message } }) + '\n');
    process.exit(1);
  },
);
