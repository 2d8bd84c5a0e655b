import { authenticate } from '../../src/auth/authenticate';
import { createTenant, gql, rest, useTestApp } from '../helpers/app';

// The request's EntityManager is forked when first used (src/auth/authenticate.ts): a
// `{ company { name } }` query answers from the key's row without one; anything that reads or
// writes through the ORM gets it, scoped to the key's company, as before.
const t = useTestApp();

async function forksDuring(fn: () => Promise<unknown>): Promise<number> {
  const spy = jest.spyOn(t.orm.em, 'fork');
  try {
    await fn();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

it('a company query forks no EntityManager; reads and writes fork one, scoped to the company', async () => {
  const a = await createTenant(t, { name: 'Lazy Plumbing' });
  const b = await createTenant(t, { name: 'Other Electric' });
  // Warm: the key cache keeps the keys, so the lookups below do not fork for their own statement.
  for (const x of [a, b]) await gql(t, x, '{ company { name } }');

  expect(await forksDuring(async () => expect((await gql(t, a, '{ company { name } }')).data).toEqual({ company: { name: 'Lazy Plumbing' } }))).toBe(0);
  expect(await forksDuring(async () => expect((await rest(t, a).get('/companies/me')).body.data.name).toBe('Lazy Plumbing'))).toBe(0);

  const created = await rest(t, b).post('/customers', { first_name: 'Bea', last_name: 'Other', email: 'bea@example.com', phone: '(217) 555-0101' });
  expect(created.status).toBe(200);
  let seen: any;
  expect(await forksDuring(async () => (seen = await rest(t, a).get('/customers')))).toBe(1);
  expect(seen.body.data.customers).toEqual([]);
  expect(await forksDuring(async () => expect((await rest(t, a).get(`/customers/${created.body.data.uuid}`)).status).toBe(404))).toBe(1);
  const gqlRead = await forksDuring(async () => expect((await gql(t, b, '{ customers { items { firstName } } }')).data?.customers.items).toEqual([{ firstName: 'Bea' }]));
  expect(gqlRead).toBe(1);
  // A mutation's context gets the managed company, user and key (the operation's plugin).
  const made = await gql(t, a, 'mutation { createCustomer(input: { firstName: "Al", lastName: "Lazy", email: "al@example.com", phone: "(217) 555-0102" }) { firstName } }');
  expect(made.errors).toBeUndefined();
  expect(made.data?.createCustomer.firstName).toBe('Al');
});

it("a context copied the way Apollo copies it shares the request's EntityManager and loaders, whether they were made before the copy or after", async () => {
  const a = await createTenant(t);
  const copy = (ctx: object) => Object.assign(Object.create(Object.getPrototypeOf(ctx)), ctx);
  const before = await authenticate(t.orm, { headers: { authorization: `Bearer ${a.key}` } } as any, 'r1');
  const em = before.em;
  const loaders = before.loaders;
  const copied = copy(before);
  expect(copied.em).toBe(em);
  expect(copied.loaders).toBe(loaders);
  const after = await authenticate(t.orm, { headers: { authorization: `Bearer ${a.key}` } } as any, 'r2');
  const late = copy(after);
  expect(late.em).toBe(after.em);
  expect(late.loaders).toBe(after.loaders);
  expect(late.em.getFilterParams('tenant')).toEqual({ companyId: a.companyUuid });
  expect(late.em).not.toBe(em);
});
