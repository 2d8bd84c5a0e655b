import type { LoadVariant } from './load';
import type { Measured, Row } from './report';

// Invoice PDFs (issue 17): a 20-line invoice under load (every request renders: no If-None-Match),
// and 500-line invoices one after another, for the server's RSS rise.

type Run = (variants: LoadVariant[], extra: { connections?: number; amount?: number; durationSeconds?: number }) => Promise<Measured>;

export async function pdfRows(o: {
  base: string;
  key: string;
  job: { uuid: string; customer_uuid: string };
  quick: boolean;
  rss: () => number;
  run: Run;
  log: (s: string) => void;
}): Promise<Row[]> {
  const invoice = async (lines: number) => {
    const res = await fetch(`${o.base}/api/v1/invoices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${o.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        job_uuid: o.job.uuid,
        customer_uuid: o.job.customer_uuid,
        due_date: '2027-01-31',
        status: 'Draft',
        line_items: Array.from({ length: lines }, (_, i) => ({ description: `Part ${i + 1}: copper fitting ¾″`, quantity: 1 + (i % 3), unit_price: 12.5 + i, tax_rate: 8.25 })),
      }),
    });
    const body = (await res.json()) as { data?: { uuid: string } };
    if (!body.data) throw new Error(`PDF bench: invoice create failed: ${JSON.stringify(body).slice(0, 400)}`);
    return body.data.uuid;
  };
  const get = (uuid: string): LoadVariant[] => [{ path: `/api/v1/invoices/${uuid}/pdf`, headers: { authorization: `Bearer ${o.key}` } }];
  o.log('invoice PDF, 20 lines…');
  // Four connections: more would only wait in the server's render queue (2 at once).
  const small = await o.run(get(await invoice(20)), { connections: 4 });
  o.log(`  ${small.rps.toFixed(1)} PDFs/s, p50 ${small.p50} ms`);
  o.log('invoice PDF, 500 lines, one at a time…');
  const big = await invoice(500);
  await new Promise((r) => setTimeout(r, 1000));
  const idle = o.rss();
  const large = await o.run(get(big), { connections: 1, amount: o.quick ? 3 : 40, durationSeconds: undefined });
  return [
    { id: 'invoice_pdf_20', label: 'REST invoice PDF, 20 lines', result: small, baseline: null, sameJson: null },
    { id: 'invoice_pdf_500', label: 'REST invoice PDF, 500 lines, one at a time', result: large, baseline: null, sameJson: null, rssRise: (large.rssMax ?? idle) - idle },
  ];
}
