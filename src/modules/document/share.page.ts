import type { DocumentField } from './document.fields';
import type { DocumentView } from './document.view';
import { formatDate, formatMoney, formatQuantity, taxRows } from './pdf.format';

// The customer page of a share link (docs/documents.md): plain HTML with its own CSS in one
// <style> (allowed by its nonce), no script, no external resource. It works without JavaScript:
// Accept and Decline are ordinary forms. Laid out for a 360 px wide phone first.

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f4f5f7}
main{max-width:720px;margin:0 auto;padding:16px}
.card{background:#fff;border:1px solid #d8dbe0;border-radius:8px;padding:16px;margin:0 0 16px}
h1{font-size:1.4rem;margin:0 0 4px}h2{font-size:1.1rem;margin:0 0 8px}
.muted{color:#4a4f57;font-size:.9rem}
.status{display:inline-block;padding:2px 8px;border-radius:12px;background:#e8eefc;color:#1c3d8f;font-weight:600;font-size:.85rem}
.parties{display:grid;grid-template-columns:1fr;gap:12px}
@media (min-width:560px){.parties{grid-template-columns:1fr 1fr}}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:8px 4px;border-bottom:1px solid #e3e5e8;vertical-align:top}
td.num,th.num{text-align:right;white-space:nowrap}
.detail{display:block;color:#4a4f57;font-size:.85rem}
.totals td{border:0;padding:4px}
.totals tr.total td{font-weight:700;font-size:1.1rem;border-top:2px solid #1a1a1a}
fieldset{border:1px solid #d8dbe0;border-radius:6px;margin:0 0 12px;padding:8px 12px}
legend{font-weight:600;padding:0 4px}
.option{display:flex;gap:8px;align-items:center;padding:6px 0}
label{font-weight:600}
input[type=text],textarea{width:100%;font:inherit;padding:10px;border:1px solid #8a9099;border-radius:6px;margin:4px 0 12px}
input[type=radio]{width:20px;height:20px}
button,.button{display:inline-block;font:inherit;font-weight:600;padding:12px 18px;border-radius:6px;border:2px solid #1c3d8f;background:#1c3d8f;color:#fff;text-decoration:none;cursor:pointer;min-height:44px}
button.secondary,.button.secondary{background:#fff;color:#1c3d8f}
:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
.notice{padding:12px;border-radius:6px;background:#e7f6ec;border:1px solid #2e7d4f}
.error{padding:12px;border-radius:6px;background:#fdecec;border:1px solid #b3261e}
.fields{display:grid;grid-template-columns:auto 1fr;gap:2px 12px;margin:8px 0 0}
.fields dt{font-weight:600}.fields dd{margin:0;overflow-wrap:anywhere}
`;

export function layout(title: string, nonce: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(title)}</title><style nonce="${nonce}">${CSS}</style></head>
<body><main>${body}</main></body></html>`;
}

export function messagePage(title: string, message: string, nonce: string): string {
  return layout(title, nonce, `<div class="card"><h1>${esc(title)}</h1><p>${esc(message)}</p></div>`);
}

export interface PageState {
  base: string;
  notice?: string;
  error?: string;
  /** Values typed before an error, shown again. */
  signerName?: string;
  tier?: string;
  /** Show the Pay button (an invoice with a balance, online payments on: docs/payments.md), with the fee passed on. */
  pay?: { feeCents: number } | null;
}

/** Custom fields printed on documents, as a list of labels and values (nothing when there are none). */
function fieldList(fields: DocumentField[]): string {
  if (!fields.length) return '';
  return `<dl class="fields">${fields.map((f) => `<dt>${esc(f.label)}</dt><dd>${esc(f.text)}</dd>`).join('')}</dl>`;
}

function linesTable(v: DocumentView): string {
  const rows = v.lines
    .map((l) => `<tr><td>${esc(l.description)}<span class="detail">${esc(formatQuantity(l.quantity))} × ${esc(formatMoney(l.unitPriceCents))}</span></td><td class="num">${esc(formatMoney(l.amountCents))}</td></tr>`)
    .join('');
  const totals: Array<[string, number, boolean?]> = [['Subtotal', v.subtotalCents], ...v.adjustments, ...taxRows(v), ['Total', v.totalCents, true]];
  if (v.invoice) totals.push(['Paid', v.invoice.paidCents], ['Balance due', v.invoice.balanceCents, true]);
  return `<table aria-label="Line items"><thead><tr><th scope="col">Description</th><th scope="col" class="num">Amount</th></tr></thead><tbody>${rows}</tbody></table>
<table class="totals" aria-label="Totals"><tbody>${totals.map(([label, cents, strong]) => `<tr${strong ? ' class="total"' : ''}><td>${esc(label)}</td><td class="num">${esc(formatMoney(cents))}</td></tr>`).join('')}</tbody></table>`;
}

function answerForms(v: DocumentView, s: PageState): string {
  const e = v.estimate!;
  const tiers = e.tiers.length
    ? `<fieldset><legend>Choose an option</legend>${e.tiers
        .map((t) => {
          const checked = (s.tier ?? e.selectedTier) === t.tier ? ' checked' : '';
          const label = `${t.tier[0].toUpperCase()}${t.tier.slice(1)}: ${formatMoney(t.totalCents)} total`;
          return `<div class="option"><input type="radio" id="tier-${t.tier}" name="tier" value="${t.tier}" required${checked}><label for="tier-${t.tier}">${esc(label)}</label></div>`;
        })
        .join('')}</fieldset>`
    : '';
  return `<section class="card" aria-labelledby="accept-h"><h2 id="accept-h">Accept this estimate</h2>
<form method="post" action="${s.base}/accept">${tiers}
<label for="signer_name">Your full name (your signature)</label>
<input type="text" id="signer_name" name="signer_name" autocomplete="name" required maxlength="255" value="${esc(s.signerName ?? '')}">
<button type="submit">Accept estimate</button></form></section>
<section class="card" aria-labelledby="decline-h"><h2 id="decline-h">Decline this estimate</h2>
<form method="post" action="${s.base}/decline"><label for="reason">Reason (optional)</label>
<textarea id="reason" name="reason" rows="3" maxlength="10000"></textarea>
<button type="submit" class="secondary">Decline estimate</button></form></section>`;
}

function payForm(v: DocumentView, s: PageState): string {
  const balance = v.invoice!.balanceCents;
  const fee = s.pay?.feeCents ?? 0;
  const feeLine = fee > 0 ? `<p>Processing fee: ${esc(formatMoney(fee))}</p>` : '';
  return `<section class="card" aria-labelledby="pay-h"><h2 id="pay-h">Pay online</h2>
<form method="post" action="${s.base}/pay"><p>Balance due: ${esc(formatMoney(balance))}</p>${feeLine}
<button type="submit">Pay ${esc(formatMoney(balance + fee))}</button></form></section>`;
}

export function documentPage(v: DocumentView, nonce: string, s: PageState): string {
  const title = `${v.kind === 'invoice' ? 'Invoice' : 'Estimate'} ${v.number}`;
  const dates = v.dates.map(([label, d]) => `${esc(label)}: ${esc(formatDate(d))}`).join(' · ');
  const customer = [v.customer.name, v.customer.companyName, ...v.customer.address].filter(Boolean).map(esc).join('<br>');
  const location = v.location ? [v.location.name, ...v.location.address].map(esc).join('<br>') : '';
  const open = v.kind === 'estimate' && v.status === 'Pending';
  const acc = v.estimate?.acceptance;
  const accepted = acc ? `<p class="notice" role="status">Accepted by ${esc(acc.signer_name)} on ${esc(formatDate(acc.accepted_at.slice(0, 10)))}.</p>` : '';
  const company = [v.company.name, ...v.company.address, v.company.phone, v.company.email].filter(Boolean).map(esc);
  return layout(
    `${title} from ${v.company.name}`,
    nonce,
    `<header class="card"><p class="muted">${company.join(' · ')}</p>
<h1>${esc(title)}</h1><p><span class="status">${esc(v.status)}</span> <span class="muted">${dates}</span></p>${fieldList([...v.fields.document, ...v.fields.job])}</header>
${s.notice ? `<p class="notice" role="status">${esc(s.notice)}</p>` : ''}${s.error ? `<p class="error" role="alert">${esc(s.error)}</p>` : ''}${accepted}
<section class="card parties" aria-label="Customer and service location"><div><h2>${v.kind === 'invoice' ? 'Bill to' : 'Prepared for'}</h2><p>${customer}</p>${fieldList(v.fields.customer)}</div>${location ? `<div><h2>Service location</h2><p>${location}</p>${fieldList(v.fields.location)}</div>` : ''}</section>
<section class="card" aria-labelledby="items-h"><h2 id="items-h">Details</h2>${linesTable(v)}${v.notes ? `<p>${esc(v.notes)}</p>` : ''}
<p><a class="button secondary" href="${s.base}/pdf">Download PDF</a></p></section>
${open ? answerForms(v, s) : ''}${s.pay && v.invoice ? payForm(v, s) : ''}`,
  );
}
