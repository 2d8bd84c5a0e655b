import type request from 'supertest';
import { startEngine, Engine, stopSenders } from '../../src/jobs/engine';
import '../../src/jobs/tasks';

/**
 * Registers the hooks of a background task engine in this process on the spec's database (started
 * in beforeAll, polling every half second; stopped in afterAll with the task senders), which runs
 * the imports the spec uploads.
 */
export function useImportEngine(t: TestApp): void {
  let engine: Engine | undefined;
  beforeAll(async () => {
    engine = await startEngine(t.orm, t.url, { pollingIntervalSeconds: 0.5 });
  });
  afterAll(async () => {
    await engine?.stop();
    await stopSenders();
  });
}

/** A file answer (an export, an error file) as text: the response with `body` the whole text. */
export async function fileText(r: request.Test): Promise<request.Response & { body: string }> {
  return r.buffer(true).parse((res: unknown, cb: (err: Error | null, body: string) => void) => {
    const s = res as NodeJS.ReadableStream;
    let text = '';
    s.setEncoding('utf8');
    s.on('data', (c: string) => (text += c));
    s.on('end', () => cb(null, text));
  }) as Promise<request.Response & { body: string }>;
}

/** NDJSON text as its objects. */
export function ndjson(body: string): Record<string, unknown>[] {
  return body.trim() ? body.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>) : [];
}

import request2 from 'supertest';
import { stringify } from 'csv-stringify/sync';
import type { Tenant, TestApp } from './app';
import { rest } from './app';
import { until } from './webhook-receiver';

/** POST /api/v1/imports with a file and options; the response. */
export function uploadImport(t: TestApp, tenant: Tenant, file: string | Buffer, fields: Record<string, string | boolean>, fileName = 'data.csv') {
  let r = request2(t.app).post('/api/v1/imports').set('Authorization', `Bearer ${tenant.key}`);
  for (const [k, v] of Object.entries(fields)) r = r.field(k, String(v));
  return r.attach('file', Buffer.isBuffer(file) ? file : Buffer.from(file, 'utf8'), fileName);
}

/** Waits until the import has finished (succeeded, failed or cancelled); its REST shape. */
export async function finished(t: TestApp, tenant: Tenant, uuid: string, timeoutMs = 900_000): Promise<Record<string, any>> {
  return until(
    async () => {
      const data = (await rest(t, tenant).get(`/imports/${uuid}`)).body.data;
      return ['succeeded', 'failed', 'cancelled'].includes(data.status) ? data : null;
    },
    `import ${uuid} to finish`,
    timeoutMs,
  );
}

/** CSV text of a header and rows (csv-stringify). */
export const csvOf = (columns: string[], rows: string[][]) => stringify([columns, ...rows]);

/**
 * `n` customer rows with unique emails (the file of the import tests), in the columns of CUSTOMER_COLUMNS.
 * Row i (0-based) is file row i + 2.
 */
export const CUSTOMER_COLUMNS = ['first_name', 'last_name', 'email', 'phone', 'customer_type', 'is_vip', 'company_name', 'notes', 'internal_flags', 'primary_service_location_uuid', 'on_my_way_notify_via'];

export function customerRow(i: number): string[] {
  const phone = `(217) 555-${String(i % 10000).padStart(4, '0')}`;
  return [`First${i}`, `Last, ${i}`, `person${i}@example.com`, phone, i % 3 ? 'Residential' : 'Commercial', i % 7 ? 'false' : 'true', i % 5 ? '' : `Co "${i}"`, i % 11 ? '' : `line one\nline two ${i}`, i % 13 ? '' : '{"gate":"1,2"}', '', ''];
}
