import { RESOURCES, rightsOf, type Resource, type Role } from '../../src/domain/scopes';

// The role table as the product states it (docs/people-and-access.md), written out here apart from
// src/domain/scopes.ts, and how key scopes narrow it.

const can = (role: Role, scopes: string[], scope: string) => rightsOf(role, scopes as never).allows(scope as never);
const writes = (role: Role) => RESOURCES.filter((r) => can(role, ['*'], `${r}:write`));
const reads = (role: Role) => RESOURCES.filter((r) => can(role, ['*'], `${r}:read`));

describe('roles', () => {
  it('owners and admins may do everything (that an admin may not change an owner is the users service’s rule)', () => {
    expect(writes('owner')).toEqual([...RESOURCES]);
    expect(writes('admin')).toEqual([...RESOURCES]);
  });

  it('office staff write business records and read the feed, users, company, numbering and custom fields; not users, keys, webhooks, numbering, company settings or custom fields', () => {
    const business: Resource[] = ['customers', 'locations', 'jobs', 'visits', 'photos', 'templates', 'estimates', 'invoices', 'payments', 'imports', 'recurring_invoices'];
    expect(writes('office').sort()).toEqual([...business].sort());
    expect(reads('office').sort()).toEqual([...business, 'custom_fields', 'events', 'users', 'company', 'numbering'].sort());
  });

  it('technicians read jobs, visits, customers and locations and write visits and photos, nothing more', () => {
    expect(reads('technician').sort()).toEqual(['customers', 'jobs', 'locations', 'photos', 'visits']);
    expect(writes('technician').sort()).toEqual(['photos', 'visits']);
  });
});

describe('key scopes', () => {
  it('narrow the role, never widen it; write implies read; *:read reads everything the role reads', () => {
    expect(can('owner', ['customers:read'], 'customers:read')).toBe(true);
    expect(can('owner', ['customers:read'], 'customers:write')).toBe(false);
    expect(can('owner', ['customers:write'], 'customers:read')).toBe(true);
    expect(can('owner', ['customers:write'], 'jobs:read')).toBe(false);
    expect(can('technician', ['invoices:write'], 'invoices:read')).toBe(false);
    expect(can('office', ['*:read'], 'customers:write')).toBe(false);
    expect(can('office', ['*:read'], 'users:read')).toBe(true);
    expect(can('office', ['*:read'], 'webhooks:read')).toBe(false);
  });

  it('reading jobs reads their visits (a visit is part of its job), and nothing else is implied', () => {
    expect(can('owner', ['jobs:read'], 'visits:read')).toBe(true);
    expect(can('owner', ['jobs:write'], 'visits:write')).toBe(false);
    expect(can('owner', ['visits:read'], 'jobs:read')).toBe(false);
  });

  it('are decided once per pair: a request looks its rights up', () => {
    expect(rightsOf('office', ['jobs:read'])).toBe(rightsOf('office', ['jobs:read']));
  });
});
