import { createTenant, gql, useTestApp } from '../../helpers/app';

const t = useTestApp();

describe('GraphQL templates', () => {
  it('create, get, list, update, delete with camelCase names and enums', async () => {
    const a = await createTenant(t);
    const fields = 'uuid name pricingType basePrice tiers { good better best } addons { id name price } taxRate';
    const c = await gql(t, a, `mutation($i: TemplateCreateInput!) { createTemplate(input: $i) { ${fields} } }`, {
      i: { name: 'Tune-up', pricingType: 'TIERED', tiers: { good: 89, better: 129.5 }, addons: [{ id: 'filter', name: 'Filter', price: 20 }], taxRate: 7 },
    });
    expect(c.errors).toBeUndefined();
    const tpl = c.data.createTemplate;
    expect(tpl).toMatchObject({ pricingType: 'TIERED', basePrice: null, tiers: { good: 89, better: 129.5, best: null }, addons: [{ id: 'filter', name: 'Filter', price: 20 }], taxRate: 7 });
    const g = await gql(t, a, `query($u: UUID!) { template(uuid: $u) { name } templates(limit: 10) { items { uuid } pagination { total totalPages } } }`, { u: tpl.uuid });
    expect(g.data).toEqual({ template: { name: 'Tune-up' }, templates: { items: [{ uuid: tpl.uuid }], pagination: { total: 1, totalPages: 1 } } });
    const u = await gql(t, a, `mutation($u: UUID!) { updateTemplate(uuid: $u, input: { pricingType: FLAT, basePrice: 100 }) { pricingType basePrice tiers { good } } }`, { u: tpl.uuid });
    expect(u.data.updateTemplate).toEqual({ pricingType: 'FLAT', basePrice: 100, tiers: null });
    const bad = await gql(t, a, `mutation($u: UUID!) { updateTemplate(uuid: $u, input: { taxRate: 150 }) { uuid } }`, { u: tpl.uuid });
    expect(bad.errors?.[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(bad.errors?.[0].extensions.details?.[0].field).toBe('taxRate');
    const d = await gql(t, a, `mutation($u: UUID!) { deleteTemplate(uuid: $u) { message } }`, { u: tpl.uuid });
    expect(typeof d.data.deleteTemplate.message).toBe('string');
    const gone = await gql(t, a, `query($u: UUID!) { template(uuid: $u) { uuid } }`, { u: tpl.uuid });
    expect(gone.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
