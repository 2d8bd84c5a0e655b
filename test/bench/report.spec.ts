import { Measured, Report, Row, targets } from '../../bench/report';

// The targets that judge one server row against another take the other row's run made beside it
// (bench/run.ts, Scenario.reference), not that row's own figure from minutes before.

const at = (rps: number): Measured => ({ requests: rps * 5, seconds: 5, rps, p50: 1, p99: 2, non2xx: 0, statusCodes: { '200': rps * 5 }, errors: 0, rssMax: null, rssBefore: null });
const row = (id: string, rps: number, reference?: { id: string; rps: number }): Row => ({
  id,
  label: id,
  result: at(rps),
  // The rows the bench compares with the baseline have one; its figure plays no part here.
  baseline: ['customer_list', 'customer_search', 'customer_create', 'customer_get', 'invoice_list'].includes(id) ? at(rps) : null,
  sameJson: null,
  reference: reference ? { id: reference.id, label: reference.id, result: at(reference.rps) } : null,
});
const report = (rows: Row[]): Report => ({
  mode: 'embedded',
  quick: true,
  durationSeconds: 1,
  connections: 10,
  seed: { bigCustomers: 1, bigJobs: 1, bigInvoices: 1, small: 0, smallCustomers: 0, smallJobs: 0, smallInvoices: 0, bigVisits: 1 },
  rows,
  statements: { small: { limit: 10, count: 1 }, large: { limit: 100, count: 1 } },
  postgraphileSameRows: true,
  uploadBytes: 0,
  elapsedSeconds: 1,
});
const measured = (r: Report, name: string) => targets(r).find((t) => t.name.startsWith(name))?.measured;

test('a ratio between two server rows uses the run made beside the row', () => {
  const rows = [
    row('customer_list', 1000),
    row('customer_search', 400, { id: 'customer_list', rps: 800 }),
    row('visit_calendar', 600, { id: 'customer_list', rps: 750 }),
    row('customer_create', 1000),
    row('invoice_create_one', 450, { id: 'customer_create', rps: 900 }),
    row('customer_get', 2000),
    row('customer_get_scoped', 1900, { id: 'customer_get', rps: 1940 }),
    row('job_list', 1200),
    row('job_list_technician', 700, { id: 'job_list', rps: 1000 }),
  ];
  const r = report(rows);
  expect(measured(r, 'search vs plain page')).toBe('2.00×');
  expect(measured(r, 'calendar')).toBe('0.80×');
  expect(measured(r, 'invoice create (one company)')).toBe('0.50×');
  expect(measured(r, 'GET one record, scoped key')).toBe('0.98×');
  expect(measured(r, "technician's job list")).toBe('0.70×');
});

test('without a run beside it, the other row of the same run is used; a partial run without it judges nothing', () => {
  expect(measured(report([row('customer_list', 1000), row('customer_search', 400)]), 'search vs plain page')).toBe('2.50×');
  expect(measured(report([row('customer_search', 400)]), 'search vs plain page')).toBeUndefined();
  expect(measured(report([row('customer_search', 400, { id: 'customer_list', rps: 800 })]), 'search vs plain page')).toBe('2.00×');
});

test('the MCP, schedule, recurring and Stripe targets: ratios beside, and rows that must check their work', () => {
  const verified = (r: Row, ok: boolean): Row => ({ ...r, verified: { ok, note: ok ? 'right' : 'wrong' } });
  const rows = [
    row('customer_get', 3000),
    row('mcp_get_customer', 1500, { id: 'customer_get', rps: 2000 }),
    row('visit_create', 900),
    row('schedule_set', 50, { id: 'visit_create', rps: 800 }),
    verified(row('recurring_issue', 300, { id: 'invoice_create_one', rps: 600 }), true),
    verified(row('stripe_webhooks', 350), true),
  ];
  const r = report(rows);
  const met = (name: string) => targets(r).find((t) => t.name.startsWith(name))?.met;
  expect(measured(r, 'MCP get_customer')).toBe('0.75×');
  expect(measured(r, 'schedule set (730 visits)')).toBe('16.0×');
  expect(measured(r, 'recurring invoices')).toBe('0.50× (300.0/s)');
  expect([met('MCP get_customer'), met('schedule set'), met('recurring invoices'), met('Stripe webhook')]).toEqual([true, true, true, true]);
  // The same rates with a wrong check afterwards do not meet their targets.
  const wrong = report([verified(row('recurring_issue', 300, { id: 'invoice_create_one', rps: 600 }), false), verified(row('stripe_webhooks', 350), false)]);
  expect(targets(wrong).filter((t) => /recurring|Stripe/.test(t.name)).map((t) => t.met)).toEqual([false, false]);
});

test('the custom-field targets: the list and create beside their rows without fields, the filtered page beside the plain one', () => {
  const rows = [
    row('customer_list', 1000),
    row('customer_list_cf', 900, { id: 'customer_list', rps: 1000 }),
    row('customer_list_cf_filter', 400, { id: 'customer_list_cf', rps: 1000 }),
    row('customer_create', 500),
    row('customer_create_cf', 400, { id: 'customer_create', rps: 500 }),
  ];
  const r = report(rows);
  const met = (name: string) => targets(r).find((t) => t.name.startsWith(name))?.met;
  expect(measured(r, 'customer list with 10 custom fields')).toBe('0.90×');
  expect(measured(r, 'page filtered by a select custom field')).toBe('2.50×');
  expect(measured(r, 'customer create with 10 custom fields')).toBe('0.80×');
  expect([met('customer list with 10 custom fields'), met('page filtered by a select custom field'), met('customer create with 10 custom fields')]).toEqual([true, true, false]);
});

test('the live delivery targets: p99 at the asked rate with every delivery, and RSS per idle subscriber', () => {
  const live = (rps: number, p99Ms: number, ok: boolean, kb = 30): Row => ({
    ...row('live_fanout', rps),
    live: { subscribers: 1000, targetRate: 200, p99Ms, kbPerIdleSubscriber: kb },
    verified: { ok, note: ok ? 'all arrived' : '1 of 2 deliveries' },
  });
  const judge = (r: Row) => targets(report([r])).filter((t) => /live delivery|idle WebSocket/.test(t.name)).map((t) => t.met);
  expect(measured(report([live(199, 206, true)]), 'live delivery')).toBe('206 ms at 199.0/s');
  expect(judge(live(199, 206, true))).toEqual([true, true]);
  // Too slow, a writer that fell behind the asked rate, a lost delivery, too much memory: not met.
  expect(judge(live(199, 501, true))).toEqual([false, true]);
  expect(judge(live(150, 206, true))).toEqual([false, true]);
  expect(judge(live(199, 206, false))).toEqual([false, true]);
  expect(judge(live(199, 206, true, 51))).toEqual([true, false]);
});
