import type { RequestContext } from '../../data/context';
import { applyInput, containsPattern, findActive, listPage, readActive, RefSpec, restoreRecord, softDelete } from '../../data/crud';
import { Location } from '../location/location.entity';
import { Customer, CustomerType } from './customer.entity';
import { CustomerCreateInput, CustomerFilter, CustomerListArgs, CustomerUpdateInput } from './customer.inputs';

// Customer search matches these fields (docs/conventions.md). As one text joined by U+001F, so that one
// trigram index serves it and no match spans two fields (migration 0008, whose index expression
// must stay identical to CUSTOMER_SEARCH_TEXT without the alias); a term containing U+001F itself
// is matched field by field.
const SEPARATOR = '\x1f';
const CUSTOMER_SEARCH_FIELDS = ['e.first_name', 'e.last_name', `e.first_name || ' ' || e.last_name`, 'e.company_name', 'e.email', 'e.phone', 'e.uuid::text'];
const CUSTOMER_SEARCH_TEXT = `(e.first_name || E'\\x1f' || e.last_name || E'\\x1f' || e.first_name || ' ' || e.last_name || E'\\x1f' || coalesce(e.company_name, '') || E'\\x1f' || coalesce(e.email, '') || E'\\x1f' || coalesce(e.phone, '') || E'\\x1f' || e.uuid::text)`;
const PHONE_DIGITS = `regexp_replace(coalesce(e.phone, ''), '\\D', '', 'g')`;

const refs: RefSpec[] = [{ field: 'primaryServiceLocationUuid', relation: 'primaryServiceLocation', entity: Location, label: 'location' }];

export const customerService = {
  list(ctx: RequestContext, args: CustomerListArgs) {
    return listPage(ctx, Customer, args, (w) => {
      const filters = args.filter ?? [];
      if (filters.length && !filters.includes(CustomerFilter.ALL)) {
        const anyOf: string[] = [];
        const params: unknown[] = [];
        for (const [filter, type] of [[CustomerFilter.RESIDENTIAL, CustomerType.RESIDENTIAL], [CustomerFilter.COMMERCIAL, CustomerType.COMMERCIAL]] as const) {
          if (!filters.includes(filter)) continue;
          anyOf.push(`${w.col('customerType')} = ?`);
          params.push(type);
        }
        if (filters.includes(CustomerFilter.VIP)) anyOf.push(`${w.col('isVip')}`);
        w.and(anyOf.join(' or '), params);
      }
      if (args.search) {
        const p = containsPattern(args.search);
        const digits = args.search.replace(/\D/g, '');
        // Names, "first last", company name, email, phone (digits alone too) and the uuid.
        const fields = args.search.includes(SEPARATOR) ? CUSTOMER_SEARCH_FIELDS.map((f) => `${f} ilike ?`).join(' or ') : `${CUSTOMER_SEARCH_TEXT} ilike ?`;
        const params = args.search.includes(SEPARATOR) ? CUSTOMER_SEARCH_FIELDS.map(() => p) : [p];
        w.and(fields + (digits ? ` or ${PHONE_DIGITS} like ?` : ''), digits ? [...params, `%${digits}%`] : params);
      }
    });
  },

  get(ctx: RequestContext, uuid: string) {
    return findActive(ctx, Customer, uuid, 'Customer');
  },

  /** The customer for a response only (GET): a read-only instance (readActive). */
  read(ctx: RequestContext, uuid: string) {
    return readActive(ctx, Customer, uuid, 'Customer');
  },

  async create(ctx: RequestContext, input: CustomerCreateInput) {
    const customer = new Customer();
    customer.company = ctx.company;
    await applyInput(ctx, customer, input, refs);
    ctx.em.persist(customer);
    await ctx.em.flush();
    return customer;
  },

  async update(ctx: RequestContext, uuid: string, input: CustomerUpdateInput) {
    const customer = await this.get(ctx, uuid);
    await applyInput(ctx, customer, input, refs);
    await ctx.em.flush();
    return customer;
  },

  async remove(ctx: RequestContext, uuid: string) {
    return softDelete(ctx, await this.get(ctx, uuid), 'Customer');
  },

  restore(ctx: RequestContext, uuid: string) {
    return restoreRecord(ctx, Customer, uuid, 'Customer');
  },
};
