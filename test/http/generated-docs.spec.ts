import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { printSdl } from '../../src/graphql/schema';
import { routes } from '../../src/rest/routes';
import { useTestApp } from '../helpers/app';

const t = useTestApp();

describe('generated documents', () => {
  it('schema/schema.graphql is what the resolvers emit (run `npm run schema` when this fails)', () => {
    const committed = fs.readFileSync(path.resolve(__dirname, '../../schema/schema.graphql'), 'utf8');
    expect(committed).toBe(printSdl());
  });

  it('GET /api/v1/openapi.json is an OpenAPI 3.1 document of every route, with envelope and error body', async () => {
    const res = await request(t.app).get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    for (const r of routes) {
      const p = '/api/v1' + r.path.replace(/:(\w+)/g, '{$1}');
      expect(doc.paths[p]?.[r.method.toLowerCase()]).toBeDefined();
    }
    const create = doc.paths['/api/v1/customers'].post;
    const input = doc.components.schemas[create.requestBody.content['application/json'].schema.$ref.split('/').pop()];
    expect(input.required).toEqual(['first_name', 'last_name']);
    expect(input.properties.customer_type.enum).toEqual(['Residential', 'Commercial']);
    expect(input.properties.physical_address1).toBeDefined();
    const list = doc.paths['/api/v1/customers'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['page', 'limit', 'include_deleted', 'filter', 'search']));
    const data = list.responses['200'].content['application/json'].schema.properties.data;
    expect(data.required).toEqual(['customers', 'pagination']);
    expect(doc.components.schemas.ValidationError.properties.error.properties.code.enum).toEqual(['VALIDATION_ERROR']);
    expect(doc.components.schemas.Customer.properties.deleted_at.type).toEqual(['string', 'null']);
  });

  it('/docs serves an interactive reference from local assets', async () => {
    const page = await request(t.app).get('/docs/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger-ui-bundle.js');
    expect(page.text).not.toMatch(/https?:\/\//);
    expect((await request(t.app).get('/docs/swagger-ui-bundle.js')).status).toBe(200);
    expect((await request(t.app).get('/docs/init.js')).text).toContain('/api/v1/openapi.json');
  });
});

describe('OpenAPI request bodies', () => {
  it('each PUT body is the schema of its own resource, named as in GraphQL', async () => {
    const doc = (await request(t.app).get('/api/v1/openapi.json')).body;
    const body = (p: string) => {
      const ref: string = doc.paths[p].put.requestBody.content['application/json'].schema.$ref;
      return { name: ref.split('/').pop()!, schema: doc.components.schemas[ref.split('/').pop()!] };
    };
    const expected: Record<string, [string, string]> = {
      '/api/v1/customers/{uuid}': ['CustomerUpdateInput', 'first_name'],
      '/api/v1/locations/{uuid}': ['LocationUpdateInput', 'is_active'],
      '/api/v1/invoices/{uuid}': ['InvoiceUpdateInput', 'due_date'],
      '/api/v1/payments/{uuid}': ['PaymentUpdateInput', 'payment_type'],
      '/api/v1/jobs/{uuid}': ['JobUpdateInput', 'title'],
      '/api/v1/templates/{uuid}': ['TemplateUpdateInput', 'pricing_type'],
    };
    for (const [p, [name, field]] of Object.entries(expected)) {
      const b = body(p);
      expect([p, b.name]).toEqual([p, name]);
      expect(b.schema.properties[field]).toBeDefined();
      expect(b.schema.required).toBeUndefined();
    }
  });
});

describe('OpenAPI validity', () => {
  it('the document validates against the official OpenAPI 3.1 schema', async () => {
    const doc = (await request(t.app).get('/api/v1/openapi.json')).body;
    // The validator is ESM-only: run it in a plain Node process.
    const { execFileSync } = await import('node:child_process');
    const script = `import { Validator } from '@seriousme/openapi-schema-validator';
      let input = ''; process.stdin.on('data', (d) => (input += d)).on('end', async () => {
        const v = new Validator(); const r = await v.validate(JSON.parse(input));
        process.stdout.write(JSON.stringify({ valid: r.valid, version: v.version, errors: r.errors ?? null }));
      });`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { input: JSON.stringify(doc), cwd: path.resolve(__dirname, '../..') });
    expect(JSON.parse(String(out))).toEqual({ valid: true, version: '3.1', errors: null });
  });
});
