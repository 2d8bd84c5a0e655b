// Log lines for a person at a terminal (docs/access-and-operations.md, "Logs"): one short line per
// entry, `12:04:05 INFO  message  key=value …`, a request as `POST /api/v1/customers 201 11.2 ms`,
// an error's stack indented below. pino still builds each entry as JSON; this only reformats it.
// Used when stdout is a terminal (or LOG_FORMAT=pretty); otherwise the JSON lines are written as is.

const LEVELS: Record<number, [string, string]> = {
  10: ['TRACE', '90'],
  20: ['DEBUG', '36'],
  30: ['INFO ', '32'],
  40: ['WARN ', '33'],
  50: ['ERROR', '31'],
  60: ['FATAL', '35'],
};

type Entry = Record<string, unknown> & { level?: number; time?: number; msg?: string };

function value(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  return JSON.stringify(v);
}

/** One JSON log line (pino's) as the text shown at a terminal; `color` adds ANSI colours. */
export function prettyLine(line: string, color: boolean): string {
  let e: Entry;
  try {
    e = JSON.parse(line) as Entry;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const paint = (code: string, s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const { level = 30, time, msg = '', err, ...rest } = e;
  const [name, code] = LEVELS[level] ?? [String(level).padEnd(5), '0'];
  const clock = new Date(typeof time === 'number' ? time : Date.now()).toTimeString().slice(0, 8);
  let head = msg;
  if (msg === 'request' && typeof rest.method === 'string') {
    head = `${rest.method} ${String(rest.path ?? rest.route ?? '')} ${String(rest.status ?? '')}${rest.durationMs !== undefined ? ` ${String(rest.durationMs)} ms` : ''}`;
    for (const k of ['method', 'path', 'route', 'status', 'durationMs']) delete rest[k];
  }
  const fields = Object.entries(rest)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => paint('2', `${k}=${value(v)}`))
    .join(' ');
  let out = `${paint('2', clock)} ${paint(code, name)} ${head}${fields ? `  ${fields}` : ''}\n`;
  if (err && typeof err === 'object') {
    const stack = (err as { stack?: unknown; message?: unknown }).stack ?? (err as { message?: unknown }).message;
    if (stack) out += String(stack).replace(/^/gm, '    ') + '\n';
  }
  return out;
}

/** A pino destination that writes pretty lines to stdout (a terminal: its writes are synchronous). */
export function prettyDestination(color: boolean) {
  return {
    write(line: string): boolean {
      return process.stdout.write(prettyLine(line, color));
    },
    flush(cb?: (err?: Error) => void): void {
      cb?.();
    },
    flushSync(): void {
      // Nothing is buffered here.
    },
  };
}
