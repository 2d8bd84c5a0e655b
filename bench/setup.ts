import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { ensureDatabase, startEmbeddedDatabase } from '../src/db/embedded';
import { EMBEDDED_DB_NAME } from '../src/db/database';
import { initOrm } from '../src/db/orm';
import { createCompany } from '../src/modules/company/company.admin';
import { seedCompany } from './seed';
import { seedVisits } from './seed-visits';

// The database of a run: the embedded PostgreSQL in a temporary DATA_DIR, or a database of its
// own created on the server of DATABASE_URL (dropped at the end): the benchmark never writes into
// the database DATABASE_URL names.

export interface BenchDatabase {
  /** URL of the database the server, the baseline and PostGraphile all use. */
  url: string;
  dataDir: string;
  /** Environment for the server process: DATA_DIR (embedded) or DATABASE_URL. */
  serverEnv: Record<string, string>;
  mode: 'embedded' | 'DATABASE_URL';
  close(): Promise<void>;
}

export async function openBenchDatabase(log: (m: string) => void): Promise<BenchDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-bench-'));
  fs.chmodSync(dataDir, 0o755);
  const external = process.env.DATABASE_URL?.trim();
  if (external) {
    const name = `fsc_bench_${process.pid}`;
    const admin = new Client({ connectionString: external });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(external);
    u.pathname = `/${name}`;
    log(`database ${name} on the DATABASE_URL server`);
    return {
      url: u.toString(),
      dataDir,
      serverEnv: { DATABASE_URL: u.toString(), DATA_DIR: dataDir },
      mode: 'DATABASE_URL',
      close: async () => {
        const c = new Client({ connectionString: external });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
        await c.end();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  log(`embedded PostgreSQL in ${dataDir}`);
  const pg = await startEmbeddedDatabase(dataDir, log);
  const url = await ensureDatabase(pg.url, EMBEDDED_DB_NAME);
  return {
    url,
    dataDir,
    // The server finds the running cluster through DATA_DIR's state file, as `npm start` does.
    serverEnv: { DATA_DIR: dataDir, DATABASE_URL: '' },
    mode: 'embedded',
    close: async () => {
      await pg.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Tenant {
  name: string;
  companyUuid: string;
  userId: string;
  key: string;
}

export interface SeedSize {
  bigCustomers: number;
  bigJobs: number;
  bigInvoices: number;
  small: number;
  smallCustomers: number;
  smallJobs: number;
  smallInvoices: number;
  /** Visits of the big company (bench/seed-visits.ts). */
  bigVisits: number;
}

export const FULL: SeedSize = { bigCustomers: 100_000, bigJobs: 50_000, bigInvoices: 50_000, small: 50, smallCustomers: 500, smallJobs: 300, smallInvoices: 250, bigVisits: 200_000 };
export const QUICK: SeedSize = { bigCustomers: 600, bigJobs: 300, bigInvoices: 250, small: 3, smallCustomers: 30, smallJobs: 20, smallInvoices: 15, bigVisits: 400 };

/** Companies and keys through the admin functions, then the rows in set-based SQL, then ANALYZE. */
export async function seed(url: string, size: SeedSize, log: (m: string) => void): Promise<{ big: Tenant; small: Tenant[]; techs: string[] }> {
  const orm = await initOrm(url, 2);
  const tenants: Tenant[] = [];
  try {
    for (let i = 0; i <= size.small; i++) {
      const name = i === 0 ? 'Bench Big Plumbing' : `Bench Small ${i}`;
      const { company, user, apiKey } = await createCompany(orm.em.fork(), { name, email: `office${i}@bench.example` });
      tenants.push({ name, companyUuid: company.uuid, userId: user.id, key: apiKey });
    }
  } finally {
    await orm.close(true);
  }
  const db = new Client({ connectionString: url });
  await db.connect();
  let techs: string[] = [];
  try {
    const t0 = Date.now();
    for (const [i, t] of tenants.entries()) {
      await seedCompany(db, {
        uuid: t.companyUuid,
        userId: t.userId,
        customers: i === 0 ? size.bigCustomers : size.smallCustomers,
        jobs: i === 0 ? size.bigJobs : size.smallJobs,
        invoices: i === 0 ? size.bigInvoices : size.smallInvoices,
      });
      if (i === 0) techs = await seedVisits(db, t.companyUuid, size.bigVisits);
      if (i === 0) log(`big company seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
    await db.query('vacuum analyze');
    // The bulk load's dirty pages are written now, not during the first scenarios.
    await db.query('checkpoint');
    const { rows } = await db.query(
      `select (select count(*) from customers) c, (select count(*) from jobs) j, (select count(*) from invoices) i, (select count(*) from payments) p, (select count(*) from visits) v`,
    );
    log(`seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${rows[0].c} customers, ${rows[0].j} jobs, ${rows[0].i} invoices, ${rows[0].p} payments, ${rows[0].v} visits, ${tenants.length} companies`);
  } finally {
    await db.end();
  }
  return { big: tenants[0], small: tenants.slice(1), techs };
}

/** The body of the visit create row (bench/run.ts) and of bench/ab.ts's `visit`: far from the seeded weeks, with no crew (no booking to check). */
export const VISIT_BODY = JSON.stringify({ title: 'Bench visit', starts_at: '2031-03-04T15:00:00.000Z', ends_at: '2031-03-04T16:00:00.000Z' });

/** The body of the invoice create rows (bench/run.ts) and of bench/ab.ts's `invoice`: two lines, one taxed. */
export const invoiceBody = (j: { uuid: string; customer_uuid: string }) =>
  JSON.stringify({
    job_uuid: j.uuid,
    customer_uuid: j.customer_uuid,
    due_date: '2027-01-31',
    line_items: [
      { description: 'Labor', quantity: 2, unit_price: 85, tax_rate: 0 },
      { description: 'Parts', quantity: 1, unit_price: 42.5, tax_rate: 8.25 },
    ],
    terms: 'Net 30',
  });

/** GraphQL: a page of invoices with each one's customer and payments. */
export const GQL_INVOICES = `query InvoicesPage($limit: Int) {
  invoices(limit: $limit) {
    items { uuid invoiceNumber status issueDate dueDate totalAmount paidAmount balanceAmount createdAt
      customer { uuid firstName lastName email }
      payments { uuid paymentNumber amount status paymentDate } }
    pagination { page limit total totalPages }
  }
}`;
