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
  ];
  const r = report(rows);
  expect(measured(r, 'search vs plain page')).toBe('2.00×');
  expect(measured(r, 'calendar')).toBe('0.80×');
  expect(measured(r, 'invoice create (one company)')).toBe('0.50×');
});

test('without a run beside it, the other row of the same run is used; a partial run without it judges nothing', () => {
  expect(measured(report([row('customer_list', 1000), row('customer_search', 400)]), 'search vs plain page')).toBe('2.50×');
  expect(measured(report([row('customer_search', 400)]), 'search vs plain page')).toBeUndefined();
  expect(measured(report([row('customer_search', 400, { id: 'customer_list', rps: 800 })]), 'search vs plain page')).toBe('2.00×');
});
