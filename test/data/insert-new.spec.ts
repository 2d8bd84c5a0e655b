import { hashApiKey } from '../../src/auth/api-key';
import { contextFor } from '../../src/auth/authenticate';
import { inTransaction, RequestContext } from '../../src/data/context';
import { applyInput } from '../../src/data/crud';
import { insertNew } from '../../src/data/insert';
import { ApiKey } from '../../src/modules/api-key/api-key.entity';
import { Customer } from '../../src/modules/customer/customer.entity';
import { CustomerCreateInput } from '../../src/modules/customer/customer.inputs';
import { customerService } from '../../src/modules/customer/customer.service';
import { Location } from '../../src/modules/location/location.entity';
import { actAs, requestActor } from '../../src/modules/event/event.actor';
import { toRest } from '../../src/rest/case-map';
import { createTenant, rest, Tenant, useTestApp } from '../helpers/app';

// insertNew (src/data/insert.ts: customer creation in one statement) writes what the plain path,
// `em.persist(entity); await em.flush()`, writes: the same row, the same events with the same actor,
// the same answer; inside a transaction it commits and rolls back with it; the entity is managed
// afterwards as after a flush.
const t = useTestApp();

async function ctxOf(tenant: Tenant, actor = true): Promise<RequestContext> {
  const em = t.orm.em.fork({ clear: true, useContext: true });
  const key = await em.findOne(ApiKey, { keyHash: hashApiKey(tenant.key) }, { populate: ['company', 'user'], filters: false });
  if (actor) actAs(em, requestActor({ key: key!, requestId: 'req-insert' }));
  return contextFor(em, key!, 'req-insert');
}

async function build(ctx: RequestContext, input: Record<string, unknown>): Promise<Customer> {
  const customer = new Customer();
  customer.company = ctx.company;
  await applyInput(ctx, customer, Object.assign(new CustomerCreateInput(), input), [{ field: 'primaryServiceLocationUuid', relation: 'primaryServiceLocation', entity: Location, label: 'location' }]);
  return customer;
}

/** The plain path, as customer creation was written before insertNew. */
async function flushed(ctx: RequestContext, input: Record<string, unknown>): Promise<Customer> {
  const customer = await build(ctx, input);
  ctx.em.persist(customer);
  await ctx.em.flush();
  return customer;
}

async function inserted(ctx: RequestContext, input: Record<string, unknown>): Promise<Customer> {
  const customer = await build(ctx, input);
  await insertNew(ctx.em, customer);
  return customer;
}

const OWN = ['uuid', 'created_at', 'updated_at', 'createdAt', 'updatedAt'];
// The generated search column (migration 0023) ends with the record's own uuid.
const withoutOwnUuid = (v: unknown, uuid: unknown) => (typeof v === 'string' && typeof uuid === 'string' ? v.replace(uuid, '<uuid>') : v);
const without = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !OWN.includes(k)).map(([k, v]) => [k, k === 'search_text' ? withoutOwnUuid(v, o.uuid) : v]));

/** The customer's row and its events, without what differs between two records by nature. */
async function written(uuid: string) {
  const db = t.orm.em.fork().getConnection();
  type Event = { type: string; actor: unknown; previous: unknown; row: Record<string, unknown> };
  const [row] = await db.execute(`select * from customers where uuid = ?`, [uuid]);
  const events = await db.execute(`select type, resource, company_uuid, actor, row, previous from events where record_uuid = ? order by id`, [uuid]);
  return { at: row && [row.created_at, row.updated_at], row: row && without(row), events: (events as Event[]).map((e) => ({ ...e, row: without(e.row) })) };
}

it('writes the same row and events, with the same actor, as persist and flush', async () => {
  const a = await createTenant(t);
  const location = await rest(t, a).post('/locations').send({ name: 'Depot', address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' });
  expect(location.status).toBe(200);
  const inputs: Record<string, unknown>[] = [
    { firstName: 'Bo', lastName: 'Plain' },
    {
      firstName: 'Ada', lastName: 'Lovelace', companyName: 'Engines Ltd', email: 'ada@example.com', phone: '(217) 555-0100', customerType: 'Commercial', isVip: true,
      physicalAddress1: '1 Loop Rd', physicalCity: 'Springfield', physicalState: 'IL', physicalZip: '62701', billingAddress1: 'PO Box 9', billingCity: 'Peoria',
      billingState: 'IL', billingZip: '61602', notes: 'gate code 42', primaryServiceLocationUuid: location.body.data.uuid,
    },
  ];
  for (const actor of [true, false]) {
    for (const input of inputs) {
      const plain = await flushed(await ctxOf(a, actor), input);
      const one = await inserted(await ctxOf(a, actor), input);
      const [p, o] = [await written(plain.uuid), await written(one.uuid)];
      expect(o.row).toBeDefined();
      expect({ row: o.row, events: o.events }).toEqual({ row: p.row, events: p.events });
      // The timestamps are the entity's, to the millisecond, as a flush writes them.
      for (const [record, written] of [[plain, p], [one, o]] as const) {
        expect((written.at as string[]).map((v) => new Date(v).getTime())).toEqual([record.createdAt.getTime(), record.updatedAt.getTime()]);
      }
      expect(o.events.map((e) => e.type)).toEqual(['customer.created']);
      expect(o.events[0].actor).toEqual(actor ? { type: 'api_key', key_id: expect.any(String), user_id: a.userId, request_id: 'req-insert' } : null);
      // The same answer, and it is what a read of the record gives.
      expect(without(toRest(Customer, one))).toEqual(without(toRest(Customer, plain)));
      const read = await customerService.get(await ctxOf(a), one.uuid);
      expect(toRest(Customer, read)).toEqual(toRest(Customer, one));
    }
  }
});

it('leaves the entity managed and clean, as a flush does: a later change is an update of that field only', async () => {
  const a = await createTenant(t);
  const ctx = await ctxOf(a);
  const one = await inserted(ctx, { firstName: 'Cy', lastName: 'Managed' });
  expect(ctx.em.getUnitOfWork().getById(Customer.name, one.uuid)).toBe(one);
  ctx.em.getUnitOfWork().computeChangeSets();
  expect(ctx.em.getUnitOfWork().getChangeSets()).toHaveLength(0);
  one.notes = 'changed';
  await ctx.em.flush();
  const { events } = await written(one.uuid);
  expect(events.map((e) => [e.type, e.previous])).toEqual([
    ['customer.created', null],
    ['customer.updated', { notes: null, updated_at: expect.any(String) }],
  ]);
});

it('inside a transaction, commits and rolls back with it', async () => {
  const a = await createTenant(t);
  const ctx = await ctxOf(a);
  let uuid = '';
  await expect(
    inTransaction(ctx, async (tx) => {
      uuid = (await inserted(tx, { firstName: 'Ro', lastName: 'Back' })).uuid;
      throw new Error('undo');
    }),
  ).rejects.toThrow('undo');
  expect(await written(uuid)).toEqual({ at: undefined, row: undefined, events: [] });
  const kept = await inTransaction(ctx, (tx) => inserted(tx, { firstName: 'Com', lastName: 'Mit' }));
  const { events } = await written(kept.uuid);
  expect(events.map((e) => [e.type, (e.actor as { type: string }).type])).toEqual([['customer.created', 'api_key']]);
});

it('REST creation answers as a read of the record, with an Idempotency-Key too', async () => {
  const a = await createTenant(t);
  const created = await rest(t, a).post('/customers').send({ first_name: 'Di', last_name: 'Rest', email: 'di@example.com' });
  expect(created.status).toBe(200);
  expect((await rest(t, a).get(`/customers/${created.body.data.uuid}`)).body.data).toEqual(created.body.data);
  const keyed = () => rest(t, a).post('/customers').set('Idempotency-Key', 'insert-new-1').send({ first_name: 'Id', last_name: 'Em' });
  const first = await keyed();
  const again = await keyed();
  expect(first.status).toBe(200);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.body).toEqual(first.body);
  expect((await rest(t, a).get(`/customers/${first.body.data.uuid}`)).body.data).toEqual(first.body.data);
  const { events } = await written(first.body.data.uuid);
  expect(events.map((e) => [e.type, (e.actor as { type: string }).type])).toEqual([['customer.created', 'api_key']]);
});
