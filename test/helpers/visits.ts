import { rest, Tenant, TestApp } from './app';

/** A job (with a new customer) of the tenant; `extra` adds job fields. */
export async function makeJob(t: TestApp, a: Tenant, extra: object = {}) {
  const c = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'Lovelace' })).body.data;
  const res = await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'Install', ...extra });
  expect(res.body.error).toBeUndefined();
  return res.body.data;
}

/** A visit of the job over REST. */
export async function makeVisit(t: TestApp, a: Tenant, jobUuid: string, body: object) {
  const res = await rest(t, a).post(`/jobs/${jobUuid}/visits`, body);
  expect(res.body.error).toBeUndefined();
  return res.body.data;
}

/** An instant on 2026-06-01 (or `day`) at an hour UTC, as the API writes it. */
export const at = (h: number, day = '2026-06-01') => `${day}T${String(h).padStart(2, '0')}:00:00.000Z`;
export const slot = (from: number, to: number, day?: string) => ({ starts_at: at(from, day), ends_at: at(to, day) });
