import { createTenant, gql, useTestApp } from '../../helpers/app';
import { makeInvoice, pay } from '../../helpers/billing';

const t = useTestApp();

const FIELDS = `uuid paymentNumber invoiceUuid customerUuid paymentType paymentMethod amount processingFee netAmount paymentDate
  transactionId referenceNumber authorizationCode paymentDetails notes status processedAt createdByUserId createdAt updatedAt deletedAt`;
const CREATE = `mutation($input: PaymentCreateInput!) { createPayment(input: $input) { ${FIELDS} invoice { invoiceNumber paidAmount balanceAmount status } customer { email } } }`;

describe('GraphQL payments', () => {
  it('creates with enums and relations; the invoice follows in the same response', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const res = await gql(t, a, CREATE, { input: { invoiceUuid: inv.uuid, paymentType: 'CHECK', amount: 100, processingFee: 0.5, paymentDate: '2026-11-21', referenceNumber: '1042' } });
    expect(res.errors).toBeUndefined();
    const p = res.data.createPayment;
    expect(p).toMatchObject({
      paymentNumber: '1',
      invoiceUuid: inv.uuid,
      customerUuid: inv.customer_uuid,
      paymentType: 'CHECK',
      amount: 100,
      processingFee: 0.5,
      netAmount: 99.5,
      status: 'COMPLETED',
      createdByUserId: a.userId,
      invoice: { invoiceNumber: inv.invoice_number, paidAmount: 100, balanceAmount: 0, status: 'PAID' },
      customer: { email: 'ada@example.com' },
    });
    const got = await gql(t, a, `query($u: UUID!) { payment(uuid: $u) { ${FIELDS} } }`, { u: p.uuid });
    const { invoice: _i, customer: _c, ...plain } = p;
    expect(got.data.payment).toEqual(plain);
    const inv2 = await gql(t, a, `query($u: UUID!) { invoice(uuid: $u) { payments { uuid } } }`, { u: inv.uuid });
    expect(inv2.data.invoice.payments).toEqual([{ uuid: p.uuid }]);
  });

  it('refuses overpayment, fee above amount and statuses other than Completed/Pending on create', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const base = { invoiceUuid: inv.uuid, paymentType: 'CASH', paymentDate: '2026-11-21' };
    const over = await gql(t, a, CREATE, { input: { ...base, amount: 100.01 } });
    expect(over.errors?.[0]).toMatchObject({ extensions: { code: 'VALIDATION_ERROR' } });
    expect(over.errors?.[0].message).toMatch(/amount exceeds invoice balance/);
    const fee = await gql(t, a, CREATE, { input: { ...base, amount: 5, processingFee: 6 } });
    expect(fee.errors?.[0].extensions.details?.map((d) => d.field)).toEqual(['processingFee']);
    const refunded = await gql(t, a, CREATE, { input: { ...base, amount: 5, status: 'REFUNDED' } });
    expect(refunded.errors?.[0].extensions.details?.map((d) => d.field)).toEqual(['status']);
    const zero = await gql(t, a, CREATE, { input: { ...base, amount: 0 } });
    expect(zero.errors?.[0].extensions.details?.map((d) => d.field)).toEqual(['amount']);
  });

  it('updates status and amount with the balance following; invoiceUuid is not an update field', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const p = (await pay(t, a, inv.uuid, 60)).body.data;
    const up = await gql(t, a, `mutation($u: UUID!) { updatePayment(uuid: $u, input: { status: REFUNDED, notes: "returned" }) { status notes invoice { paidAmount status } } }`, { u: p.uuid });
    expect(up.data.updatePayment).toEqual({ status: 'REFUNDED', notes: 'returned', invoice: { paidAmount: 0, status: 'PENDING' } });
    const bad = await gql(t, a, `mutation($u: UUID!, $i: UUID!) { updatePayment(uuid: $u, input: { invoiceUuid: $i }) { uuid } }`, { u: p.uuid, i: inv.uuid });
    expect(bad.errors?.[0].extensions.code).toBe('VALIDATION_ERROR');
    const del = await gql(t, a, `mutation($u: UUID!) { deletePayment(uuid: $u) { message } }`, { u: p.uuid });
    expect(del.data.deletePayment.message).toEqual(expect.any(String));
    expect((await gql(t, a, `query($u: UUID!) { payment(uuid: $u) { uuid } }`, { u: p.uuid })).errors?.[0].extensions.code).toBe('NOT_FOUND');
  });

  it('lists with enum list filters', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const cash = (await pay(t, a, inv.uuid, 10)).body.data;
    const card = (await pay(t, a, inv.uuid, 10, { payment_type: 'credit_card', status: 'Pending' })).body.data;
    const ids = async (args: string) => (await gql(t, a, `{ payments(${args}) { items { uuid } pagination { total } } }`)).data.payments.items.map((p: { uuid: string }) => p.uuid);
    expect(await ids('paymentType: [CASH]')).toEqual([cash.uuid]);
    expect(await ids('status: [PENDING, FAILED]')).toEqual([card.uuid]);
    expect(await ids(`invoiceUuid: "${inv.uuid}"`)).toEqual([card.uuid, cash.uuid]);
    expect(await ids(`customerUuid: "${inv.customer_uuid}", paymentType: [CREDIT_CARD]`)).toEqual([card.uuid]);
  });

  it('keeps companies apart', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'B' });
    const inv = await makeInvoice(t, a);
    const p = (await pay(t, a, inv.uuid, 10)).body.data;
    expect((await gql(t, b, `query($u: UUID!) { payment(uuid: $u) { uuid } }`, { u: p.uuid })).errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect((await gql(t, b, `mutation($u: UUID!) { updatePayment(uuid: $u, input: { notes: "x" }) { uuid } }`, { u: p.uuid })).errors?.[0].extensions.code).toBe('NOT_FOUND');
    const foreign = await gql(t, b, CREATE, { input: { invoiceUuid: inv.uuid, paymentType: 'CASH', amount: 1, paymentDate: '2026-11-21' } });
    expect(foreign.errors?.[0].extensions.details?.map((d) => d.field)).toEqual(['invoiceUuid']);
    expect((await gql(t, b, `{ payments { pagination { total } } }`)).data.payments.pagination.total).toBe(0);
  });
});
