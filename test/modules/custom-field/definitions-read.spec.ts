import type { EntityManager } from '@mikro-orm/postgresql';
import { systemContext } from '../../../src/data/system-context';
import { leanFind } from '../../../src/data/record';
import { liveDefinitions, liveDefinitionsOf } from '../../../src/modules/custom-field/custom-data';
import { CustomFieldDefinition, CustomFieldResource } from '../../../src/modules/custom-field/custom-field.entity';
import { createTenant, rest, useTestApp } from '../../helpers/app';

// A company's live definitions of one resource are read by a prepared statement (every create and
// update reads them), of several by leanFind (src/modules/custom-field/custom-data.ts): both give
// what leanFind gives for the same condition, record for record.

const t = useTestApp();

describe('the definitions a create reads', () => {
  it('are those leanFind reads: every type, defaults, options, order, deleted and other companies left out', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t);
    const define = async (tenant: typeof a, body: object) => {
      const r = await rest(t, tenant).post('/custom_fields', body);
      expect(r.status).toBe(200);
      return r.body.data as { uuid: string };
    };
    await define(a, { resource: 'customer', key: 'unit', label: 'Unit', type: 'select', options: ['furnace', 'heat pump'], default: 'furnace', show_on_documents: true, position: 1 });
    await define(a, { resource: 'customer', key: 'gate_code', label: 'Gate', type: 'text', required: false, position: 2 });
    await define(a, { resource: 'customer', key: 'tonnage', label: 'Tons', type: 'number', position: 2 });
    const gone = await define(a, { resource: 'customer', key: 'old', label: 'Old', type: 'boolean' });
    expect((await rest(t, a).delete(`/custom_fields/${gone.uuid}`)).status).toBe(200);
    await define(a, { resource: 'job', key: 'permit', label: 'Permit', type: 'text' });
    await define(b, { resource: 'customer', key: 'unit', label: 'Unit', type: 'text' });
    const em = t.orm.em.fork() as EntityManager;
    const ctx = systemContext(em, a.companyUuid, 'definitions-read');
    const plain = (resource: CustomFieldResource) =>
      leanFind(em, CustomFieldDefinition, { company: a.companyUuid, resource, deletedAt: null }, { orderBy: { position: 'asc', key: 'asc' } });
    const customer = await liveDefinitions(ctx, CustomFieldResource.CUSTOMER);
    expect(customer.map((d) => d.key)).toEqual(['unit', 'gate_code', 'tonnage']);
    expect(customer).toEqual(await plain(CustomFieldResource.CUSTOMER));
    expect(customer.every((d) => d instanceof CustomFieldDefinition)).toBe(true);
    const other = systemContext(t.orm.em.fork() as EntityManager, a.companyUuid, 'definitions-read-2');
    const [c2, job] = await liveDefinitionsOf(other, [CustomFieldResource.CUSTOMER, CustomFieldResource.JOB]);
    expect(c2).toEqual(customer);
    expect(job).toEqual(await plain(CustomFieldResource.JOB));
  });
});
