import request from 'supertest';
import { createTenant, gql, rest, Tenant, useTestApp } from '../helpers/app';
import { fields, makeInvoice } from '../helpers/billing';
import { canonicalJson } from '../../src/data/idempotency';

const t = useTestApp();

const post = (tenant: Tenant, path: string, body: object, key?: string) => {
  const r = request(t.app).post(`/api/v1${path}`).set('Authorization', `Bearer ${tenant.key}`);
  return (key === undefined ? r : r.set('Idempotency-Key', key)).send(body);
};
const count = async (table: string) => Number((await t.orm.em.getConnection().execute(`select count(*) as n from ${table}`))[0].n);

describe('Idempotency-Key', () => {
  it('canonical JSON ignores key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"x":2,"y":1}]},"b":1}');
  });

  it('REST: a retry returns the first response and creates nothing; key order does not matter', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const body = { invoice_uuid: inv.uuid, payment_type: 'cash', amount: 10, payment_date: '2026-11-21' };
    const first = await post(a, '/payments', body, 'pay-1');
    expect(first.status).toBe(200);
    const reordered = { payment_date: '2026-11-21', amount: 10, payment_type: 'cash', invoice_uuid: inv.uuid };
    const again = await post(a, '/payments', reordered, 'pay-1');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await count('payments')).toBe(1);
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data.paid_amount).toBe(10);
    // Without the header every request creates.
    await post(a, '/payments', body);
    expect(await count('payments')).toBe(2);
  });

  it('REST: the same key with another body is a 400', async () => {
    const a = await createTenant(t);
    await post(a, '/customers', { first_name: 'A', last_name: 'B' }, 'k');
    const other = await post(a, '/customers', { first_name: 'A', last_name: 'C' }, 'k');
    expect(other.status).toBe(400);
    expect(other.body.error.code).toBe('VALIDATION_ERROR');
    expect(fields(other)).toEqual(['Idempotency-Key']);
    expect(await count('customers')).toBe(1);
    expect((await post(a, '/customers', { first_name: 'A', last_name: 'B' }, 'x'.repeat(256))).status).toBe(400);
  });

  it('REST: errors are not kept; a retry runs again', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const body = { invoice_uuid: inv.uuid, payment_type: 'cash', amount: 150, payment_date: '2026-11-21' };
    expect((await post(a, '/payments', body, 'retry')).status).toBe(400);
    expect((await post(a, '/payments', body, 'retry')).status).toBe(400);
    // After the invoice grows, the same request succeeds.
    await rest(t, a).put(`/invoices/${inv.uuid}`, { line_items: [{ unit_price: 200 }] });
    const ok = await post(a, '/payments', body, 'retry');
    expect(ok.status).toBe(200);
    expect(ok.headers['idempotent-replayed']).toBeUndefined();
    // A fixed body under the key of a failed one runs too.
    expect((await post(a, '/customers', { first_name: '' }, 'fix')).status).toBe(400);
    expect((await post(a, '/customers', { first_name: 'A', last_name: 'B' }, 'fix')).status).toBe(200);
  });

  it('REST: identical requests racing with one key create one record', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const body = { invoice_uuid: inv.uuid, payment_type: 'cash', amount: 5, payment_date: '2026-11-21' };
    const all = await Promise.all(Array.from({ length: 8 }, () => post(a, '/payments', body, 'race')));
    expect(all.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(all.map((r) => r.body.data.uuid)).size).toBe(1);
    expect(await count('payments')).toBe(1);
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data.paid_amount).toBe(5);
  });

  it('is scoped to the API key and the route', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'B' });
    const c1 = await post(a, '/customers', { first_name: 'A', last_name: 'B' }, 'same');
    const c2 = await post(b, '/customers', { first_name: 'A', last_name: 'B' }, 'same');
    expect(c2.body.data.uuid).not.toBe(c1.body.data.uuid);
    const loc = await post(a, '/locations', { name: 'L', address1: '1 St', city: 'X', state: 'NY', zip: '10001' }, 'same');
    expect(loc.status).toBe(200);
    expect(await count('customers')).toBe(2);
  });

  it('keeps a response 24 hours; expired keys are purged and run again', async () => {
    const a = await createTenant(t);
    await post(a, '/customers', { first_name: 'A', last_name: 'B' }, 'old');
    const [row] = await t.orm.em.getConnection().execute(`select extract(epoch from expires_at - created_at) as ttl from idempotency_keys`);
    expect(Number(row.ttl)).toBe(24 * 3600);
    await t.orm.em.getConnection().execute(`update idempotency_keys set created_at = now() - interval '25 hours', expires_at = now() - interval '1 hour'`);
    expect((await post(a, '/customers', { first_name: 'A', last_name: 'B' }, 'old')).headers['idempotent-replayed']).toBeUndefined();
    expect(await count('customers')).toBe(2);
    expect(await count('idempotency_keys')).toBe(1);
  });

  it('GraphQL: create mutations replay by header; another body is an error; queries ignore it', async () => {
    const a = await createTenant(t);
    const m = `mutation($input: CustomerCreateInput!) { createCustomer(input: $input) { uuid firstName } }`;
    const h = { 'Idempotency-Key': 'gql-1' };
    const first = await gql(t, a, m, { input: { firstName: 'Ada', lastName: 'L' } }, h);
    const again = await gql(t, a, m, { input: { lastName: 'L', firstName: 'Ada' } }, h);
    expect(first.errors).toBeUndefined();
    expect(again).toEqual(first);
    expect(await count('customers')).toBe(1);
    const other = await gql(t, a, m, { input: { firstName: 'Bob', lastName: 'L' } }, h);
    expect(other.errors?.[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(await count('customers')).toBe(1);
    const q = await gql(t, a, `{ customers { pagination { total } } }`, {}, h);
    expect(q.data.customers.pagination.total).toBe(1);
    // Errors are not kept.
    const bad = await gql(t, a, m, { input: { firstName: '', lastName: 'L' } }, { 'Idempotency-Key': 'gql-2' });
    expect(bad.errors?.[0].extensions.code).toBe('VALIDATION_ERROR');
    const good = await gql(t, a, m, { input: { firstName: 'Eve', lastName: 'L' } }, { 'Idempotency-Key': 'gql-2' });
    expect(good.data.createCustomer.firstName).toBe('Eve');
  });

  it('GraphQL: racing duplicates create one payment', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const m = `mutation($input: PaymentCreateInput!) { createPayment(input: $input) { uuid invoice { paidAmount } } }`;
    const input = { invoiceUuid: inv.uuid, paymentType: 'CASH', amount: 7, paymentDate: '2026-11-21' };
    const all = await Promise.all(Array.from({ length: 6 }, () => gql(t, a, m, { input }, { 'Idempotency-Key': 'g-race' })));
    expect(new Set(all.map((r) => r.data?.createPayment.uuid)).size).toBe(1);
    expect(all[0].data.createPayment.invoice.paidAmount).toBe(7);
    expect(await count('payments')).toBe(1);
  });
});
