import request from 'supertest';
import { addUser, createTenant, rest, Tenant, TestApp } from './app';
import { png } from './images';
import { Customer } from '../../src/modules/customer/customer.entity';
import { Estimate } from '../../src/modules/estimate/estimate.entity';
import { Invoice } from '../../src/modules/invoice/invoice.entity';
import { Job } from '../../src/modules/job/job.entity';
import { JobPhoto } from '../../src/modules/job-photo/job-photo.entity';
import { Location } from '../../src/modules/location/location.entity';
import { Payment } from '../../src/modules/payment/payment.entity';
import { Template } from '../../src/modules/template/template.entity';
import { User } from '../../src/modules/user/user.entity';

// Every list, once: how to make its i-th record (through the API, with values that tie and
// differ across records), where its REST list and GraphQL list are, and its table. The sync specs
// (sort, updated_since, restore) generate their cases from this table.

/** What a tenant's records hang on: a customer and a job (photos), made once per test. */
export interface World {
  t: TestApp;
  tenant: Tenant;
  customerUuid: string;
  jobUuid: string;
}

export interface Resource {
  name: string;
  entity: Function;
  table: string;
  /** REST list path. */
  path: (w: World) => string;
  /** GraphQL list query name and its extra arguments. */
  gql: string;
  gqlArgs?: (w: World) => string;
  /** Makes the i-th record (0 … 3); returns its uuid. */
  make: (w: World, i: number) => Promise<string>;
  /** REST path of one record (restore is `${one}/restore`); absent: not soft-deletable. */
  one?: (w: World, uuid: string) => string;
  /** GraphQL restore mutation and its extra arguments. */
  restore?: string;
  restoreArgs?: (w: World) => string;
}

const tie = <T>(i: number, values: T[]) => values[i % values.length];

async function post(w: World, path: string, body: object): Promise<string> {
  const res = await rest(w.t, w.tenant).post(path, body);
  if (res.status !== 200) throw new Error(`${path}: ${JSON.stringify(res.body)}`);
  return res.body.data.uuid;
}

async function template(w: World, i: number): Promise<string> {
  const flat = i % 3 !== 2;
  return post(w, '/templates', {
    name: tie(i, ['pump', 'fan', 'pump', 'coil']),
    pricing_type: flat ? 'flat' : 'tiered',
    ...(flat ? { base_price: tie(i, [100, 50, 100, 75]) } : { tiers: { good: 10 } }),
    tax_rate: 0,
  });
}

async function invoice(w: World, i: number): Promise<string> {
  const job = await post(w, '/jobs', { customer_uuid: w.customerUuid, title: 'billed' });
  return post(w, '/invoices', {
    job_uuid: job,
    customer_uuid: w.customerUuid,
    issue_date: tie(i, ['2026-11-02', '2026-11-01', '2026-11-02', '2026-11-03']),
    due_date: tie(i, ['2099-01-01', '2099-01-01', '2098-01-01', '2099-02-01']),
    line_items: [{ unit_price: tie(i, [100, 200, 100, 50]) }],
  });
}

export const RESOURCES: Resource[] = [
  {
    name: 'customers',
    entity: Customer,
    table: 'customers',
    path: () => '/customers',
    gql: 'customers',
    make: (w, i) =>
      post(w, '/customers', {
        first_name: tie(i, ['bea', 'ann', 'bea', 'cal']),
        last_name: tie(i, ['lee', 'lee', 'kim', 'moe']),
        company_name: tie(i, [null, 'acme', 'acme', 'bolt']),
        email: tie(i, ['bb@x.example', null, 'aa@x.example', 'bb@x.example']),
      }),
    one: (_, u) => `/customers/${u}`,
    restore: 'restoreCustomer',
  },
  {
    name: 'locations',
    entity: Location,
    table: 'locations',
    path: () => '/locations',
    gql: 'locations',
    make: (w, i) =>
      post(w, '/locations', {
        name: tie(i, ['north', 'east', 'north', 'west']),
        address1: '1 main st',
        city: tie(i, ['springfield', 'dover', 'dover', 'austin']),
        state: tie(i, ['IL', 'DE', 'DE', 'TX']),
        zip: tie(i, ['62701', '19901', '19901', '73301']),
      }),
    one: (_, u) => `/locations/${u}`,
    restore: 'restoreLocation',
  },
  { name: 'templates', entity: Template, table: 'templates', path: () => '/templates', gql: 'templates', make: template, one: (_, u) => `/templates/${u}`, restore: 'restoreTemplate' },
  {
    name: 'estimates',
    entity: Estimate,
    table: 'estimates',
    path: () => '/estimates',
    gql: 'estimates',
    make: async (w, i) =>
      post(w, '/estimates', {
        customer_uuid: w.customerUuid,
        template_uuid: await template(w, i % 2),
        ...(i % 2 ? { expires_at: tie(i, ['2099-01-01T00:00:00Z', '2099-03-01T00:00:00Z']) } : {}),
      }),
    one: (_, u) => `/estimates/${u}`,
    restore: 'restoreEstimate',
  },
  {
    name: 'jobs',
    entity: Job,
    table: 'jobs',
    path: () => '/jobs',
    gql: 'jobs',
    make: (w, i) =>
      post(w, '/jobs', {
        customer_uuid: w.customerUuid,
        title: tie(i, ['pipe', 'drain', 'pipe', 'vent']),
        ...(i % 3 ? { scheduled_date: tie(i, ['2026-12-01', '2026-12-02', '2026-12-01']), scheduled_time_start: '09:00' } : {}),
      }),
    one: (_, u) => `/jobs/${u}`,
    restore: 'restoreJob',
  },
  {
    name: 'job photos',
    entity: JobPhoto,
    table: 'job_photos',
    path: (w) => `/jobs/${w.jobUuid}/photos`,
    gql: 'jobPhotos',
    gqlArgs: (w) => `jobUuid: "${w.jobUuid}", `,
    make: async (w, i) => {
      const req = request(w.t.app).post(`/api/v1/jobs/${w.jobUuid}/photos`).set('Authorization', `Bearer ${w.tenant.key}`);
      if (i % 2) req.field('taken_at', tie(i, ['2026-11-01T10:00:00Z', '2026-11-01T09:00:00Z']));
      const res = await req.attach('photos', png(2, 2), { filename: tie(i, ['b.png', 'a.png', 'b.png', 'c.png']) });
      if (res.status !== 200) throw new Error(`photo: ${JSON.stringify(res.body)}`);
      return res.body.data.photos[0].uuid;
    },
    one: (w, u) => `/jobs/${w.jobUuid}/photos/${u}`,
    restore: 'restoreJobPhoto',
    restoreArgs: (w) => `jobUuid: "${w.jobUuid}", `,
  },
  { name: 'invoices', entity: Invoice, table: 'invoices', path: () => '/invoices', gql: 'invoices', make: invoice, one: (_, u) => `/invoices/${u}`, restore: 'restoreInvoice' },
  {
    name: 'payments',
    entity: Payment,
    table: 'payments',
    path: () => '/payments',
    gql: 'payments',
    make: async (w, i) =>
      post(w, '/payments', {
        invoice_uuid: await invoice(w, 0),
        payment_type: 'cash',
        amount: tie(i, [40, 10, 40, 25]),
        payment_date: tie(i, ['2026-11-02', '2026-11-01', '2026-11-01', '2026-11-03']),
      }),
    one: (_, u) => `/payments/${u}`,
    restore: 'restorePayment',
  },
  {
    name: 'users',
    entity: User,
    table: 'users',
    path: () => '/users',
    gql: 'users',
    // The company's first user ("Account Owner") is record -1 of this list.
    make: async (w, i) => (await addUser(w.t, w.tenant, tie(i, ['Bea', 'Ann', 'Bea', 'Cal']), tie(i, ['Lee', 'Lee', 'Kim', 'Moe']))).id,
  },
];

/** The key of a record in a list: users are keyed by id. */
export const keyOf = (item: { uuid?: string; id?: string }) => (item.uuid ?? item.id)!;

/** A company with the job photos add-on, a customer and a job: what every resource's factory needs. */
export async function makeWorld(t: TestApp): Promise<World> {
  const tenant = await createTenant(t, { addons: ['job_photos'] });
  const customerUuid = (await rest(t, tenant).post('/customers', { first_name: 'zed', last_name: 'zed' })).body.data.uuid;
  const jobUuid = (await rest(t, tenant).post('/jobs', { customer_uuid: customerUuid, title: 'photos' })).body.data.uuid;
  return { t, tenant, customerUuid, jobUuid };
}
