// A payment's customer is its invoice's (docs/invoices-and-payments.md), once in each form: the TS
// form for a payment being made (paymentService's create, which marked-paid uses too), the SQL form
// for the payments already written when their invoice moves to another customer (invoice update).
// test/modules/payment/payment-rules.spec.ts checks both against the stored rows.

/** TS form: the customer a payment on `invoice` takes. */
export const paymentCustomerOf = <C>(invoice: { customer: C }): C => invoice.customer;

/**
 * SQL form: makes the payments of one invoice carry the customer its row holds now. Parameters:
 * the invoice's uuid, then the company's. Changes (and touches updated_at of) only the payments
 * whose customer differs.
 */
export const PAYMENTS_FOLLOW_INVOICE_CUSTOMER_SQL =
  `update payments as p set customer_uuid = i.customer_uuid, updated_at = now() from invoices as i ` +
  `where i.uuid = p.invoice_uuid and i.company_uuid = p.company_uuid and p.invoice_uuid = ? and p.company_uuid = ? and p.customer_uuid <> i.customer_uuid`;
