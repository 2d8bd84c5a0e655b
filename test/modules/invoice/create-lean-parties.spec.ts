import { GraphQLObjectType, getNamedType, isLeafType } from 'graphql';
import { buildGraphQLSchema } from '../../../src/graphql/schema';
import { createTenant, gql, rest, useTestApp } from '../../helpers/app';
import { makeCustomer, makeJob } from '../../helpers/billing';

// An invoice create reads its job and customer as lean instances, not managed entities
// (loadParties, src/modules/invoice/invoice.write.ts), and its answer finds them through the
// request's loaders (Loaders.written, src/data/loaders.ts). The plain path is a read of the same
// records afterwards (GET, the `invoice` query), through the managed and batched readers: the
// create's answer must be the same, on both surfaces, with every field of both records. A
// managed job read later in the same request is answered instead of the record as the create read it.
const t = useTestApp();

/** Every field of a GraphQL type without arguments whose type is a scalar or an enum. */
function leaves(type: string): string {
  const fields = (buildGraphQLSchema().getType(type) as GraphQLObjectType).getFields();
  return Object.values(fields)
    .filter((f) => f.args.length === 0 && isLeafType(getNamedType(f.type)))
    .map((f) => f.name)
    .join(' ');
}

describe('invoice create with lean job and customer', () => {
  it('answers over REST what a GET of the invoice gives, its job and customer summaries too', async () => {
    const a = await createTenant(t);
    const customer = await makeCustomer(t, a, { company_name: 'Lean Co', is_vip: true });
    const job = await makeJob(t, a, { customer_uuid: customer.uuid, estimated_amount: 120, title: 'Lean boiler' });
    // Without line items the job's amount is billed: the job as read prices the invoice.
    const res = await rest(t, a).post('/invoices', { job_uuid: job.uuid, customer_uuid: customer.uuid, due_date: '2027-01-31' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ subtotal: 120, total_amount: 120, job: { uuid: job.uuid, status: 'Invoiced' }, customer: { uuid: customer.uuid } });
    const got = await rest(t, a).get(`/invoices/${res.body.data.uuid}`);
    expect(got.body.data).toEqual(res.body.data);
  });

  it('answers over GraphQL, every field of its job and customer, what the invoice query gives', async () => {
    const a = await createTenant(t);
    const customer = await makeCustomer(t, a, { company_name: 'Lean Co' });
    const job = await makeJob(t, a, { customer_uuid: customer.uuid, estimated_amount: 80 });
    const selection = `uuid invoiceNumber status totalAmount job { ${leaves('Job')} } customer { ${leaves('Customer')} }`;
    const created = await gql(t, a, `mutation($input: InvoiceCreateInput!) { createInvoice(input: $input) { ${selection} } }`, {
      input: { jobUuid: job.uuid, customerUuid: customer.uuid, dueDate: '2027-01-31', lineItems: [{ description: 'Labor', quantity: 1, unitPrice: 80, taxRate: 0 }] },
    });
    expect(created.errors).toBeUndefined();
    expect(created.data.createInvoice.job).toMatchObject({ status: 'INVOICED', invoicedAt: expect.any(String) });
    const read = await gql(t, a, `query($uuid: UUID!) { invoice(uuid: $uuid) { ${selection} } }`, { uuid: created.data.createInvoice.uuid });
    expect(read.errors).toBeUndefined();
    expect(created.data.createInvoice).toEqual(read.data.invoice);
  });

  it('answers a managed job read later in the same operation, not the job as the create read it', async () => {
    const a = await createTenant(t);
    const job = await makeJob(t, a, { title: 'Before' });
    const input = { jobUuid: job.uuid, customerUuid: job.customer_uuid, dueDate: '2027-01-31', lineItems: [{ description: 'Labor', quantity: 1, unitPrice: 10, taxRate: 0 }] };
    const earlier = (await gql(t, a, `mutation($input: InvoiceCreateInput!) { createInvoice(input: $input) { uuid } }`, { input })).data.createInvoice.uuid;
    const res = await gql(
      t,
      a,
      `mutation($input: InvoiceCreateInput!, $job: UUID!, $earlier: UUID!) {
        created: createInvoice(input: $input) { uuid job { title status } }
        renamed: updateJob(uuid: $job, input: { title: "After" }) { title }
        again: updateInvoice(uuid: $earlier, input: { notes: "seen" }) { job { title } }
      }`,
      { job: job.uuid, earlier, input },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ created: { uuid: expect.any(String), job: { title: 'Before', status: 'INVOICED' } }, renamed: { title: 'After' }, again: { job: { title: 'After' } } });
  });
});
