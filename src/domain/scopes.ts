// Who may do what (docs/people-and-access.md): the resources an operation acts on, the scopes a
// key carries, the roles of users and what each role may do. Pure values: the REST route table,
// the GraphQL fields, the event feed and webhooks all decide with `Rights.allows`.

export const RESOURCES = [
  'customers',
  'locations',
  'jobs',
  'visits',
  'photos',
  'templates',
  'estimates',
  'invoices',
  'payments',
  'numbering',
  'company',
  'users',
  'api_keys',
  'events',
  'webhooks',
  'custom_fields',
  'imports',
  'recurring_invoices',
] as const;
export type Resource = (typeof RESOURCES)[number];

export type Access = 'read' | 'write';
/** What an operation needs: one resource, read or write (write implies read). */
export type Scope = `${Resource}:${Access}`;
/** What a key may carry: a Scope, every resource's read (`*:read`), or everything (`*`). */
export type KeyScope = Scope | '*:read' | '*';

export const ROLES = ['owner', 'admin', 'office', 'technician'] as const;
export type Role = (typeof ROLES)[number];
/** Higher ranks first: a user may not hand out a role (or a key of a user) above their own. */
export const ROLE_RANK: Record<Role, number> = { owner: 3, admin: 2, office: 1, technician: 0 };

export const ALL_SCOPES: readonly Scope[] = RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`] as Scope[]);
export const KEY_SCOPES: readonly KeyScope[] = ['*', '*:read', ...ALL_SCOPES];

/** Business records, their documents and the feed: what office staff work with. */
const OFFICE_WRITES: Resource[] = ['customers', 'locations', 'jobs', 'visits', 'photos', 'templates', 'estimates', 'invoices', 'payments', 'imports', 'recurring_invoices'];

/**
 * Each role's rights. An owner and an admin may do everything (that an admin may not change an
 * owner is a rule of the users and keys services, not a scope); office staff everything about the
 * business's records and the feed, and may read the users, the company and its numbering, but not
 * change users, keys, webhooks, numbering or company settings; a technician reads jobs, visits,
 * customers and locations (only those of their own jobs: narrowed per record) and writes visits
 * (status, completion) and photos.
 */
export const ROLE_SCOPES: Record<Role, readonly KeyScope[]> = {
  owner: ['*'],
  admin: ['*'],
  office: [...OFFICE_WRITES.map((r) => `${r}:write` as Scope), 'custom_fields:read', 'events:read', 'users:read', 'company:read', 'numbering:read'],
  technician: ['jobs:read', 'customers:read', 'locations:read', 'visits:write', 'photos:write'],
};

// A visit is part of its job: reading jobs reads their visits (a jobs:read key sees visit events too).
const READ_ALSO: Partial<Record<Resource, Resource[]>> = { jobs: ['visits'] };

/** What a set of scopes grants: each resource's best access, with the implications above applied. */
function grants(scopes: readonly KeyScope[]): Map<Resource, Access> {
  const out = new Map<Resource, Access>();
  const give = (r: Resource, a: Access) => {
    if (out.get(r) !== 'write') out.set(r, a);
    for (const more of READ_ALSO[r] ?? []) if (!out.has(more)) out.set(more, 'read');
  };
  for (const s of scopes) {
    if (s === '*') RESOURCES.forEach((r) => give(r, 'write'));
    else if (s === '*:read') RESOURCES.forEach((r) => give(r, 'read'));
    else {
      const [r, a] = s.split(':') as [Resource, Access];
      give(r, a);
    }
  }
  return out;
}

/** A request's rights: its user's role narrowed by its key's scopes, decided once and kept per pair. */
export class Rights {
  private readonly best: Map<Resource, Access>;
  constructor(readonly role: Role, readonly scopes: readonly KeyScope[]) {
    const role_ = grants(ROLE_SCOPES[role]);
    const key = grants(scopes);
    this.best = new Map();
    for (const [r, a] of role_) {
      const k = key.get(r);
      if (k) this.best.set(r, a === 'write' && k === 'write' ? 'write' : 'read');
    }
  }

  /** Whether these rights cover `needed` (`jobs:read` is covered by jobs:write too). */
  allows(needed: Scope): boolean {
    const i = needed.indexOf(':');
    const has = this.best.get(needed.slice(0, i) as Resource);
    return has === 'write' || (has === 'read' && needed.endsWith(':read'));
  }

  /** Whether these rights cover every one of `scopes` (a key may mint only what it holds). */
  covers(scopes: readonly KeyScope[]): boolean {
    const wanted = grants(scopes);
    for (const [r, a] of wanted) if (!this.allows(`${r}:${a}`)) return false;
    return true;
  }

  /** The resources these rights may read. */
  readable(): Resource[] {
    return [...this.best.keys()];
  }

  /** The first right of these that `other` lacks (`invoices:write`), or null: a key mints only within its own rights. */
  beyond(other: Rights): Scope | null {
    for (const [r, a] of this.best) if (!other.allows(`${r}:${a}`)) return `${r}:${a}`;
    return null;
  }
}

const kept = new Map<string, Rights>();

/** The rights of a (role, key scopes) pair, made once per process and pair (a request only looks it up). */
export function rightsOf(role: Role, scopes: readonly KeyScope[]): Rights {
  const id = `${role} ${scopes.join(' ')}`;
  let rights = kept.get(id);
  if (!rights) {
    if (kept.size > 10_000) kept.clear();
    kept.set(id, (rights = new Rights(role, scopes)));
  }
  return rights;
}

export const isRole = (v: unknown): v is Role => typeof v === 'string' && (ROLES as readonly string[]).includes(v);
export const isKeyScope = (v: unknown): v is KeyScope => typeof v === 'string' && (KEY_SCOPES as readonly string[]).includes(v);

/** Who is asking, decided once per request from the key's row: its user, their role and the key's scopes. */
export interface Caller {
  userId: string;
  role: Role;
  scopes: readonly KeyScope[];
  /** The role narrowed by the scopes (rightsOf). */
  rights: Rights;
}

export function callerOf(userId: string, role: Role, scopes: readonly KeyScope[]): Caller {
  return { userId, role, scopes, rights: rightsOf(role, scopes) };
}
