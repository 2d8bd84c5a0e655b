import type { RequestContext } from '../../data/context';
import { applyInput, containsPattern, findActive, ListInclude, listPage, readActive, RefSpec, restoreRecord, softDelete } from '../../data/crud';
import { insertNew } from '../../data/insert';
import { Location } from '../location/location.entity';
import { Customer, CustomerType } from './customer.entity';
import { CustomerCreateInput, CustomerFilter, CustomerListArgs, CustomerUpdateInput } from './customer.inputs';
import { customerSearchSql } from './customer.rules';
import { applyCustomData } from '../custom-field/custom-data';
import { customFieldList } from '../custom-field/custom-field.list';
import { CustomFieldResource } from '../custom-field/custom-field.entity';

const refs: RefSpec[] = [{ field: 'primaryServiceLocationUuid', relation: 'primaryServiceLocation', entity: Location, label: 'location' }];

export const customerService = {
  async list(ctx: RequestContext, args: CustomerListArgs, include?: ListInclude) {
    // Custom-field filters and sort (docs/custom-fields.md).
    const cf = await customFieldList(ctx, CustomFieldResource.CUSTOMER, args);
    return listPage(ctx, Customer, args, (w) => {
      cf.where(w);
      // Any of the tags, whatever their case (the GIN index on lower_tags, migration 0033).
      if (args.tags?.length) w.and('lower_tags(e.tags) && array[?]::text[]', [args.tags.map((tag) => tag.toLowerCase())]);
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
        // Names, "first last", company name, email, phone (digits alone too) and the uuid (customer.rules.ts).
        const { sql, params } = customerSearchSql('e', args.search, containsPattern);
        w.and(sql, params);
      }
    }, include, cf.sort);
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
    await applyCustomData(ctx, CustomFieldResource.CUSTOMER, customer, input, true);
    // One statement instead of a flush's four round trips (src/data/insert.ts).
    await insertNew(ctx.em, customer);
    return customer;
  },

  async update(ctx: RequestContext, uuid: string, input: CustomerUpdateInput) {
    const customer = await this.get(ctx, uuid);
    await applyInput(ctx, customer, input, refs);
    await applyCustomData(ctx, CustomFieldResource.CUSTOMER, customer, input, false);
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
