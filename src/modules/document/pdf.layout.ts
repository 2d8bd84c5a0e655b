import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import type { DocumentField } from './document.fields';
import type { DocumentView } from './document.view';
import { formatDate, formatMoney, formatQuantity, taxRows } from './pdf.format';

// The page layout of an invoice or estimate PDF (docs/documents.md). Every value comes from the
// view, and the info dates from its updated_at, so the same record gives the same bytes.

const TITLE = { invoice: 'INVOICE', estimate: 'ESTIMATE' } as const;
const right = (text: string, bold = false): TableCell => ({ text, alignment: 'right', bold });
// Custom fields printed on documents, a line each, in the block of the record they belong to.
const fieldLines = (fields: DocumentField[]) => fields.map((f) => `${f.label}: ${f.text}`);

function lineTable(v: DocumentView): Content {
  // headerRows: 1 repeats the header row on every page the table runs over.
  const header: TableCell[] = [{ text: 'Description', bold: true }, right('Qty', true), right('Unit price', true), right('Amount', true)];
  const body: TableCell[][] = [header, ...v.lines.map((l) => [l.description, right(formatQuantity(l.quantity)), right(formatMoney(l.unitPriceCents)), right(formatMoney(l.amountCents))])];
  if (!v.lines.length) body.push([{ text: 'No line items', italics: true, colSpan: 4 }, '', '', '']);
  return { table: { headerRows: 1, widths: ['*', 50, 90, 90], body }, layout: 'lightHorizontalLines', margin: [0, 16, 0, 8] };
}

function totals(v: DocumentView): Content {
  const rows: TableCell[][] = [['Subtotal', right(formatMoney(v.subtotalCents))]];
  for (const [label, cents] of v.adjustments) rows.push([label, right(formatMoney(cents))]);
  for (const [label, cents] of taxRows(v)) rows.push([label, right(formatMoney(cents))]);
  rows.push([{ text: 'Total', bold: true }, right(formatMoney(v.totalCents), true)]);
  if (v.invoice) {
    rows.push(['Paid', right(formatMoney(v.invoice.paidCents))]);
    rows.push([{ text: 'Balance due', bold: true }, right(formatMoney(v.invoice.balanceCents), true)]);
  }
  return { columns: [{ text: '', width: '*' }, { width: 230, table: { widths: ['*', 100], body: rows }, layout: 'noBorders' }] };
}

function payments(v: DocumentView): Content[] {
  if (!v.invoice?.payments.length) return [];
  const body: TableCell[][] = [
    [{ text: 'Payment', bold: true }, { text: 'Date', bold: true }, { text: 'Method', bold: true }, right('Amount', true)],
    ...v.invoice.payments.map((p) => [p.number, formatDate(p.date), p.method, right(formatMoney(p.amountCents))]),
  ];
  return [{ text: 'Payments', bold: true, margin: [0, 16, 0, 4] }, { table: { headerRows: 1, widths: [90, 120, '*', 90], body }, layout: 'lightHorizontalLines' }];
}

export function documentDefinition(v: DocumentView, font: string): TDocumentDefinitions {
  const at = new Date(v.updatedAt);
  const party = (title: string, lines: string[]): Content => ({ stack: [{ text: title, bold: true, fontSize: 9, color: '#555555' }, ...lines.map((text, i) => ({ text, bold: i === 0 }))] });
  const customer = [v.customer.name, ...(v.customer.companyName ? [v.customer.companyName] : []), ...v.customer.address, ...(v.customer.email ? [v.customer.email] : []), ...fieldLines(v.fields.customer)];
  return {
    info: { title: `${v.kind === 'invoice' ? 'Invoice' : 'Estimate'} ${v.number}`, author: v.company.name, creator: 'field-service-crm', producer: 'field-service-crm', creationDate: at, modDate: at },
    pageSize: 'LETTER',
    pageMargins: [40, 40, 40, 50],
    defaultStyle: { font, fontSize: 10 },
    footer: (page: number, count: number) => ({ text: `${v.number} · page ${page} of ${count}`, alignment: 'right', fontSize: 8, margin: [40, 20, 40, 0] }),
    content: [
      {
        columns: [
          { stack: [{ text: v.company.name, bold: true, fontSize: 16 }, ...v.company.address, ...(v.company.phone ? [v.company.phone] : []), v.company.email] },
          {
            width: 200,
            alignment: 'right',
            stack: [{ text: TITLE[v.kind], bold: true, fontSize: 18 }, { text: v.number, bold: true }, ...v.dates.map(([label, d]) => `${label}: ${formatDate(d)}`), `Status: ${v.status}`, ...fieldLines([...v.fields.document, ...v.fields.job])],
          },
        ],
      },
      { columns: [party(v.kind === 'invoice' ? 'BILL TO' : 'PREPARED FOR', customer), v.location ? party('SERVICE LOCATION', [v.location.name, ...v.location.address, ...fieldLines(v.fields.location)]) : { text: '' }], margin: [0, 20, 0, 0] },
      lineTable(v),
      totals(v),
      ...payments(v),
      ...(v.notes ? [{ text: 'Notes', bold: true, margin: [0, 16, 0, 4] } as Content, { text: v.notes }] : []),
    ],
  };
}
