import type { LoadResult } from './load';
import type { SeedSize } from './setup';

// The one table of a run, and the targets (issue 7) judged from figures of the same run.

export type Measured = LoadResult & { rssMax: number | null; rssBefore: number | null };

export interface Row {
  id: string;
  label: string;
  result: Measured;
  baseline: Measured | null;
  sameJson: boolean | null;
  rssRise?: number;
  /**
   * The scenario this row's cost is judged against (a target "vs page 1", "vs customer create"),
   * run on the server beside this row in every round (bench/run.ts): its median round.
   */
  reference?: { id: string; label: string; result: Measured } | null;
  /** What the row checked after its load (every payment right, every agreement invoiced once). */
  verified?: { ok: boolean; note: string };
  /** Live delivery's figures (bench/live-fanout.ts): its latency's p99 in ms, the server's RSS per idle subscriber in KB. */
  live?: { subscribers: number; targetRate: number; p99Ms: number; kbPerIdleSubscriber: number };
}

export interface Report {
  mode: string;
  quick: boolean;
  durationSeconds: number;
  /** Alternating rounds per scenario; the median one is shown. */
  rounds?: number;
  connections: number;
  seed: SeedSize;
  rows: Row[];
  statements: { small: { limit: number; count: number }; large: { limit: number; count: number } };
  postgraphileSameRows: boolean;
  uploadBytes: number;
  elapsedSeconds: number;
}

export interface Target {
  name: string;
  goal: string;
  measured: string;
  met: boolean;
}

const MB = 1024 * 1024;
const f0 = (n: number) => n.toFixed(0);
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

export function targets(r: Report): Target[] {
  const find = (id: string) => r.rows.find((x) => x.id === id);
  // A partial run (`--only`) judges only the targets whose rows it measured.
  const has = (...ids: string[]) => ids.every((id) => find(id));
  const row = (id: string) => find(id)!;
  const rps = (id: string) => row(id).result.rps;
  // Another scenario's rate as measured beside this row (its reference), else its own row's.
  const hasBeside = (id: string, other: string) => has(id) && (row(id).reference?.id === other || has(other));
  const beside = (id: string, other: string) => {
    const ref = row(id).reference;
    return ref?.id === other ? ref.result.rps : rps(other);
  };
  const t: Target[] = [];
  if (has('customer_list', 'invoice_list')) {
    const list = row('customer_list');
    const invList = row('invoice_list');
    const listRatio = list.result.rps / list.baseline!.rps;
    // Round 2 (issue 20): 0.90×, up from round 1's 0.60×.
    t.push({ name: 'REST list vs raw baseline', goal: '≥ 0.90×', measured: `${f2(listRatio)}× (invoice list ${f2(invList.result.rps / invList.baseline!.rps)}×)`, met: listRatio >= 0.9 });
  }
  if (has('customer_get')) {
    const get = row('customer_get');
    const ratio = get.result.rps / get.baseline!.rps;
    t.push({ name: 'REST get one record vs raw baseline', goal: '≥ 0.50×', measured: `${f2(ratio)}×`, met: ratio >= 0.5 });
  }
  if (has('customer_create')) {
    const create = row('customer_create');
    const ratio = create.result.rps / create.baseline!.rps;
    t.push({ name: 'REST create vs raw baseline', goal: '≥ 0.50×', measured: `${f2(ratio)}×`, met: ratio >= 0.5 });
  }
  if (has('graphql_invoices', 'postgraphile_invoices')) {
    const gqlRatio = rps('graphql_invoices') / rps('postgraphile_invoices');
    // Round 2 (issue 20): 1.5×, up from round 1's 1.0×.
    t.push({ name: 'GraphQL invoices page vs PostGraphile 5', goal: '≥ 1.5×', measured: `${f2(gqlRatio)}×`, met: gqlRatio >= 1.5 });
  }
  if (has('graphql_company', 'postgraphile_company')) {
    const ratio = rps('graphql_company') / rps('postgraphile_company');
    t.push({ name: 'GraphQL { company { name } } vs PostGraphile 5', goal: '≥ 1.0×', measured: `${f2(ratio)}×`, met: ratio >= 1 });
  }
  const s = r.statements;
  t.push({
    name: 'SQL statements per GraphQL page',
    goal: 'constant',
    measured: `${s.small.count} at limit ${s.small.limit}, ${s.large.count} at limit ${s.large.limit}`,
    met: s.small.count === s.large.count,
  });
  if (hasBeside('customer_search', 'customer_list')) {
    const search = beside('customer_search', 'customer_list') / rps('customer_search');
    t.push({ name: 'search vs plain page (cost per request)', goal: '≤ 3×', measured: `${f2(search)}×`, met: search <= 3 });
  }
  if (hasBeside('customer_page_deep', 'customer_list')) {
    const deep = beside('customer_page_deep', 'customer_list') / rps('customer_page_deep');
    t.push({ name: 'deep page vs page 1 (cost per request)', goal: '≤ 5×', measured: `${f2(deep)}×`, met: deep <= 5 });
  }
  if (hasBeside('customer_list_sorted', 'customer_list') && hasBeside('customer_list_sorted_name', 'customer_list') && hasBeside('invoice_list_sorted', 'invoice_list')) {
    const sorted = Math.max(
      beside('customer_list_sorted', 'customer_list') / rps('customer_list_sorted'),
      beside('customer_list_sorted_name', 'customer_list') / rps('customer_list_sorted_name'),
      beside('invoice_list_sorted', 'invoice_list') / rps('invoice_list_sorted'),
    );
    t.push({ name: 'sorted page vs default order (cost per request, worst)', goal: '≤ 1.20×', measured: `${f2(sorted)}×`, met: sorted <= 1.2 });
  }
  if (hasBeside('visit_calendar', 'customer_list')) {
    const calendar = rps('visit_calendar') / beside('visit_calendar', 'customer_list');
    t.push({ name: `calendar (technician-week, ${r.seed.bigVisits} visits) vs customer list`, goal: '≥ 0.70×', measured: `${f2(calendar)}×`, met: calendar >= 0.7 });
  }
  if (hasBeside('customer_get_scoped', 'customer_get')) {
    const scoped = rps('customer_get_scoped') / beside('customer_get_scoped', 'customer_get');
    t.push({ name: 'GET one record, scoped key vs full key', goal: '≥ 0.97×', measured: `${f2(scoped)}×`, met: scoped >= 0.97 });
  }
  if (hasBeside('job_list_technician', 'job_list')) {
    const tech = rps('job_list_technician') / beside('job_list_technician', 'job_list');
    t.push({ name: "technician's job list (1% of the jobs theirs) vs owner's", goal: '≥ 0.80×', measured: `${f2(tech)}×`, met: tech >= 0.8 });
  }
  if (hasBeside('customer_list_cf', 'customer_list')) {
    const plain = rps('customer_list_cf') / beside('customer_list_cf', 'customer_list');
    t.push({ name: 'customer list with 10 custom fields vs without definitions', goal: '≥ 0.85×', measured: `${f2(plain)}×`, met: plain >= 0.85 });
  }
  if (hasBeside('customer_list_cf_filter', 'customer_list_cf')) {
    const filtered = beside('customer_list_cf_filter', 'customer_list_cf') / rps('customer_list_cf_filter');
    t.push({ name: 'page filtered by a select custom field vs plain page (cost per request)', goal: '≤ 3×', measured: `${f2(filtered)}×`, met: filtered <= 3 });
  }
  if (hasBeside('customer_create_cf', 'customer_create')) {
    const create = rps('customer_create_cf') / beside('customer_create_cf', 'customer_create');
    t.push({ name: 'customer create with 10 custom fields vs without', goal: '≥ 0.85×', measured: `${f2(create)}×`, met: create >= 0.85 });
  }
  if (hasBeside('invoice_create_one', 'customer_create')) {
    const create = rps('invoice_create_one') / beside('invoice_create_one', 'customer_create');
    t.push({ name: 'invoice create (one company) vs customer create', goal: '≥ 0.50×', measured: `${f2(create)}×`, met: create >= 0.5 });
  }
  if (hasBeside('mcp_get_customer', 'customer_get')) {
    const mcp = rps('mcp_get_customer') / beside('mcp_get_customer', 'customer_get');
    t.push({ name: 'MCP get_customer vs REST customer get', goal: '≥ 0.70×', measured: `${f2(mcp)}×`, met: mcp >= 0.7 });
  }
  if (hasBeside('schedule_set', 'visit_create')) {
    const cost = beside('schedule_set', 'visit_create') / rps('schedule_set');
    t.push({ name: 'schedule set (730 visits) vs one visit create (cost per request)', goal: '≤ 20×', measured: `${f1(cost)}×`, met: cost <= 20 });
  }
  const recurring = find('recurring_issue');
  if (recurring && recurring.reference) {
    const ratio = recurring.result.rps / recurring.reference.result.rps;
    t.push({ name: `recurring invoices (${recurring.result.requests} due) vs REST invoice create`, goal: '≥ 0.40×, each once', measured: `${f2(ratio)}× (${f1(recurring.result.rps)}/s)`, met: ratio >= 0.4 && !!recurring.verified?.ok });
  }
  const stripe = find('stripe_webhooks');
  if (stripe) t.push({ name: 'Stripe webhook events reconciled', goal: '≥ 300/s, all right', measured: `${f1(stripe.result.rps)}/s${stripe.verified?.ok ? '' : ` (${stripe.verified?.note})`}`, met: stripe.result.rps >= 300 && !!stripe.verified?.ok && stripe.result.non2xx === 0 });
  const live = find('live_fanout');
  if (live?.live) {
    const l = live.live;
    // The rate written must be the rate asked (an open loop that fell behind measured less load).
    const atRate = live.result.rps >= 0.95 * l.targetRate;
    t.push({ name: `live delivery to ${l.subscribers} subscribers at ${l.targetRate} events/s, p99`, goal: '≤ 500 ms, every delivery', measured: `${f0(l.p99Ms)} ms at ${f1(live.result.rps)}/s${live.verified?.ok ? '' : ` (${live.verified?.note})`}`, met: l.p99Ms <= 500 && atRate && !!live.verified?.ok });
    t.push({ name: 'server RSS per idle WebSocket subscriber', goal: '≤ 50 KB', measured: `${f1(l.kbPerIdleSubscriber)} KB`, met: l.kbPerIdleSubscriber <= 50 });
  }
  if (hasBeside('import_customers', 'customer_create')) {
    const imp = row('import_customers');
    const ratio = rps('import_customers') / beside('import_customers', 'customer_create');
    t.push({ name: 'import vs REST customer create (rows/s)', goal: '≥ 3×', measured: `${f2(ratio)}× (${f0(rps('import_customers'))} rows/s)`, met: ratio >= 3 });
    t.push({ name: `RSS rise importing ${imp.result.requests} customers`, goal: '≤ 50 MB', measured: `${f1((imp.rssRise ?? 0) / MB)} MB`, met: (imp.rssRise ?? 0) <= 50 * MB });
  }
  if (has('export_customers_csv')) {
    const exp = row('export_customers_csv');
    t.push({ name: 'export customers to CSV', goal: '≥ 50,000/s', measured: `${f0(exp.result.rps)}/s`, met: exp.result.rps >= 50_000 });
    t.push({ name: `RSS rise exporting ${exp.result.requests} customers, after the first tenth`, goal: '≤ 20 MB (flat)', measured: `${f1((exp.rssRise ?? 0) / MB)} MB`, met: (exp.rssRise ?? 0) <= 20 * MB });
  }
  const loaded = r.rows.filter((x) => !['photo_upload', 'recurring_issue', 'postgraphile_invoices', 'postgraphile_company', 'invoice_pdf_20', 'invoice_pdf_500', 'import_customers', 'export_customers_csv', 'live_fanout'].includes(x.id));
  if (loaded.length) {
    const rssMax = Math.max(...loaded.map((x) => x.result.rssMax ?? 0));
    t.push({ name: 'server RSS under load', goal: '≤ 300 MB', measured: `${f0(rssMax / MB)} MB`, met: rssMax <= 300 * MB });
  }
  const upload = find('photo_upload');
  if (upload) {
    const rise = upload.rssRise ?? 0;
    const okUploads = upload.result.non2xx === 0 && upload.result.errors === 0 && upload.result.requests > 0;
    t.push({
      name: `RSS rise during ${f0(r.uploadBytes / MB)} MiB uploads`,
      goal: `< ${f0((2 * r.uploadBytes) / MB)} MB`,
      measured: `${f1(rise / MB)} MB${okUploads ? '' : ' (uploads failed)'}`,
      met: okUploads && rise < 2 * r.uploadBytes,
    });
  }
  const pdf = r.rows.find((x) => x.id === 'invoice_pdf_20');
  if (pdf) t.push({ name: 'invoice PDF, 20 lines', goal: 'p50 ≤ 40 ms, ≥ 40/s', measured: `p50 ${f1(pdf.result.p50)} ms, ${f1(pdf.result.rps)}/s`, met: pdf.result.p50 <= 40 && pdf.result.rps >= 40 && pdf.result.non2xx === 0 });
  const big = r.rows.find((x) => x.id === 'invoice_pdf_500');
  if (big) t.push({ name: 'RSS rise rendering 500-line PDFs', goal: '< 30 MB', measured: `${f1((big.rssRise ?? 0) / MB)} MB`, met: (big.rssRise ?? 0) < 30 * MB && big.result.non2xx === 0 });
  return t;
}

function table(headers: string[], rows: string[][], right: boolean[]): string[] {
  const w = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => (right[i] ? c.padStart(w[i]) : c.padEnd(w[i]))).join(' | ') + ' |';
  return [line(headers), '|' + w.map((n, i) => (right[i] ? '-'.repeat(n + 1) + ':' : '-'.repeat(n + 2))).join('|') + '|', ...rows.map(line)];
}

export function printReport(r: Report, out: (line: string) => void): void {
  out('');
  out(
    `Benchmark (${r.mode} database${r.quick ? ', quick' : ''}): ${r.seed.bigCustomers} customers, ${r.seed.bigJobs} jobs, ${r.seed.bigInvoices} invoices in the big company ` +
      `+ ${r.seed.small} small companies; ${r.connections} connections, ${r.durationSeconds} s a run` +
      (r.rounds && r.rounds > 1 ? `, the median of ${r.rounds} alternating rounds` : ''),
  );
  out('');
  const rows = r.rows.map((x) => {
    const ratio = x.baseline ? x.result.rps / x.baseline.rps : null;
    const notes: string[] = [];
    if (x.result.non2xx || x.result.errors) {
      const codes = Object.entries(x.result.statusCodes ?? {}).filter(([c]) => !c.startsWith('2')).map(([c, n]) => `${c}×${n}`).join(' ');
      notes.push(`${x.result.non2xx} non-2xx${codes ? ` (${codes})` : ''}, ${x.result.errors} errors`);
    }
    if (x.sameJson === false) notes.push('JSON differs from baseline');
    if (x.reference) notes.push(`beside it: ${x.reference.id} ${f1(x.reference.result.rps)} req/s`);
    if (x.verified) notes.push(x.verified.ok ? x.verified.note : `WRONG: ${x.verified.note}`);
    if (x.id === 'photo_upload' || x.id === 'invoice_pdf_500') notes.push(`RSS +${f1((x.rssRise ?? 0) / MB)} MB`);
    if (x.id === 'postgraphile_invoices') notes.push(r.postgraphileSameRows ? 'same invoices and payments' : 'rows differ');
    return [
      x.label,
      f1(x.result.rps),
      f1(x.result.p50),
      f1(x.result.p99),
      x.baseline ? f1(x.baseline.rps) : '—',
      ratio === null ? '—' : `${f2(ratio)}×`,
      x.result.rssMax ? f0(x.result.rssMax / MB) : '—',
      x.sameJson === null ? '—' : x.sameJson ? 'yes' : 'NO',
      notes.join('; '),
    ];
  });
  table(['Scenario', 'req/s', 'p50 ms', 'p99 ms', 'baseline req/s', 'vs baseline', 'RSS MB', 'same JSON', 'notes'], rows, [false, true, true, true, true, true, true, false, false]).forEach(out);
  out('');
  out(`SQL statements for the GraphQL invoices page: ${r.statements.small.count} at limit ${r.statements.small.limit}, ${r.statements.large.count} at limit ${r.statements.large.limit}`);
  out('');
  table(
    ['Target', 'goal', 'measured', 'met'],
    targets(r).map((t) => [t.name, t.goal, t.measured, t.met ? 'yes' : 'NO']),
    [false, false, false, false],
  ).forEach(out);
  out('');
  out(`(${f0(r.elapsedSeconds)} s in all)`);
}
