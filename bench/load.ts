import fs from 'node:fs';
import autocannon from 'autocannon';

// The load generator, run as a process of its own so that it does not share a CPU queue with the
// server it measures. Given a job (JSON) in argv[2], it runs it and prints one result line (JSON) on
// stdout. Forked with an IPC channel and no job (bench/load-run.ts), it runs each job it is sent,
// one at a time, answers `{ result }` or `{ error }`, and ends when the channel closes.

export interface LoadVariant {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** A file whose bytes are the body (the 15 MiB upload). */
  bodyFile?: string;
}

export interface LoadJob {
  url: string;
  variants: LoadVariant[];
  connections: number;
  durationSeconds?: number;
  /** Stop after this many requests instead of after a duration. */
  amount?: number;
  /** At most this many requests per second over all connections (the soak's fixed rate). */
  overallRate?: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Responses by status code, so that a non-2xx answer can be explained. */
  statusCodes: Record<string, number>;
  errors: number;
}

async function runJob(job: LoadJob): Promise<LoadResult> {
  const out = await runOnce(job);
  // A short run on a busy machine can end before its first answer (autocannon counts only what was
  // answered within the duration): it is then run as one request per connection, so the quick
  // form's smoke run always sees each scenario served.
  if (isShort(job) && out.requests === 0) return runOnce({ ...job, durationSeconds: undefined, amount: job.connections });
  return out;
}

const isShort = (job: LoadJob) => !job.amount && (job.durationSeconds ?? 10) < 1;

async function runOnce(job: LoadJob): Promise<LoadResult> {
  const bodies = new Map<string, Buffer>();
  for (const v of job.variants) if (v.bodyFile && !bodies.has(v.bodyFile)) bodies.set(v.bodyFile, fs.readFileSync(v.bodyFile));
  let next = 0;
  // A run shorter than autocannon's one-second sample (the quick test's tenth of a second) samples
  // at its own length, or it would last a whole second; its rate is counted as a fixed amount's is.
  const short = isShort(job);
  const started = process.hrtime.bigint();
  const result = await autocannon({
    url: job.url,
    connections: job.connections,
    pipelining: 1,
    timeout: 60,
    // autocannon ends a run at its next sample (every sampleInt ms): a run of a fixed amount
    // samples every 100 ms, or it would wait up to a second after its last answer, and its rate
    // (answers ÷ the run's time, below) would count that second. A run of a duration keeps the
    // 1 s samples its rate is the average of.
    ...(job.amount ? { amount: job.amount, sampleInt: 100 } : { duration: job.durationSeconds ?? 10, ...(short ? { sampleInt: Math.max(50, job.durationSeconds! * 1000) } : {}) }),
    ...(job.overallRate ? { overallRate: job.overallRate } : {}),
    requests: [
      {
        // Each request takes the next variant in turn (ids, search terms, keys of companies).
        setupRequest: (req: any) => {
          const v = job.variants[next++ % job.variants.length];
          return { ...req, method: v.method ?? 'GET', path: v.path, headers: { ...req.headers, ...v.headers }, body: v.bodyFile ? bodies.get(v.bodyFile) : v.body };
        },
      },
    ],
  } as any);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const total = result.requests.total;
  const out: LoadResult = {
    requests: total,
    seconds,
    rps: job.amount || short ? total / seconds : result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(Object.entries((result as any).statusCodeStats ?? {}).map(([code, v]: [string, any]) => [code, v.count])),
    errors: result.errors + result.timeouts,
  };
  return out;
}

if (process.argv[2]) {
  runJob(JSON.parse(process.argv[2]) as LoadJob).then(
    (out) => process.stdout.write(JSON.stringify(out) + '\n'),
    (e) => {
      process.stderr.write(String(e?.stack ?? e) + '\n');
      process.exit(1);
    },
  );
} else if (process.send) {
  process.on('message', (m: { job: LoadJob }) => {
    runJob(m.job).then(
      (result) => process.send!({ result }),
      (e) => process.send!({ error: String(e?.stack ?? e) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
