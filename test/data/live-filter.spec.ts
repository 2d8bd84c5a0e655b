import { LIVE_FILTER, TENANT_FILTER } from '../../src/data/base.entity';
import { Customer } from '../../src/modules/customer/customer.entity';
import { Invoice } from '../../src/modules/invoice/invoice.entity';
import { createTenant, rest, useTestApp } from '../helpers/app';
import { makeEverything } from '../helpers/billing';

// The default soft-delete filter of ORM reads (src/data/base.entity.ts): em.find* see the live
// rows; a read that turns it off sees the deleted ones too; it never hides a record because a
// record it refers to was deleted.

const t = useTestApp();

describe('the live filter', () => {
  it('holds ORM reads to live rows unless turned off, and not through relations', async () => {
    const a = await createTenant(t);
    const all = await makeEverything(t, a);
    const em = () => {
      const e = t.orm.em.fork();
      e.setFilterParams(TENANT_FILTER, { companyId: a.companyUuid });
      return e;
    };
    // The invoice's customer, deleted behind the API's back (the API refuses while it has invoices).
    await t.orm.em.getConnection().execute('update customers set deleted_at = now() where uuid = ?', [all.customer.uuid]);
    expect(await em().findOne(Customer, { uuid: all.customer.uuid })).toBeNull();
    expect((await em().findOne(Customer, { uuid: all.customer.uuid }, { filters: { [LIVE_FILTER]: false } }))?.deletedAt).toBeInstanceOf(Date);
    expect(await em().count(Customer, {})).toBe(0);
    // The invoice, live, is found, with its (deleted) customer.
    const invoice = await em().findOne(Invoice, { uuid: all.invoice.uuid });
    expect(invoice?.customer.uuid).toBe(all.customer.uuid);
    expect((await em().find(Invoice, {})).map((i) => i.uuid)).toEqual([all.invoice.uuid]);
    // And the API shows the invoice with its customer's summary.
    const res = await rest(t, a).get(`/invoices/${all.invoice.uuid}`);
    expect(res.status).toBe(200);
    expect(res.body.data.customer_uuid).toBe(all.customer.uuid);
  });
});
