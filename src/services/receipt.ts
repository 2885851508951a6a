// An order's printable receipt (docs/api.md "Receipts and re-delivery"): the POS agent's customer copy, as
// HTML or PDF. It shows what the customer bought and got (face value, token, units, PINs) under the
// reseller's name, never what the reseller paid (amount_charged, commission: the reseller's own business).
// PINs appear only where the caller may see them (the order's own key or the dashboard: `pins` given), as
// the full record shows them. Everything from outside (the customer's name the biller gave, the reseller's
// name, references, metadata) is escaped in the HTML and reduced to Latin-1 in the PDF.
import { createHash } from 'node:crypto';
import { kobo_to_naira } from '../lib/money.js';
import type { DeliveredPin, OrderRecord } from './order.js';
import { client_reference_of, metadata_of } from './order.js';
import { format_minor } from './foreign-quotes.js';
import { naira_text, pdf_text, pdf_writer } from './pdf-document.js';

export interface ReceiptInput {
  order: OrderRecord;
  /** The reseller's (account's) name. */
  reseller_name: string;
  /** The order's PINs when the caller may see them, else null. */
  pins: DeliveredPin[] | null;
  generated_ms: number;
}

const status_words: Record<OrderRecord['status'], string> = {
  delivered: 'SUCCESSFUL',
  failed: 'FAILED',
  pending: 'PENDING',
  processing: 'PROCESSING',
};

/** Lagos wall time, "2026-11-27 22:15:03 WAT". */
function lagos_time(us: number): string {
  const text = new Date(Math.floor(us / 1000) + 3_600_000).toISOString();
  return `${text.slice(0, 10)} ${text.slice(11, 19)} WAT`;
}

/** The receipt's lines, label and value, in the order both forms show them. */
export function receipt_lines(input: ReceiptInput): [string, string][] {
  const o = input.order;
  const lines: [string, string][] = [
    ['Reference', o.reference],
    ['Date', lagos_time(o.created_us)],
    ['Status', o.status === 'failed' ? `FAILED${o.reversed ? ' (refunded)' : ''}` : status_words[o.status]],
    ['Service', o.service_type],
  ];
  const provider = o.network ?? o.disco ?? o.provider;
  if (provider !== null) lines.push([o.service_type === 'electricity' ? 'Distribution company' : o.network !== null ? 'Network' : 'Provider', provider]);
  if (o.plan !== null) lines.push(['Plan', o.plan]);
  const recipient_label = o.service_type === 'electricity' ? 'Meter number' : o.service_type === 'tv' ? 'Smartcard number' : 'Phone';
  lines.push([recipient_label, o.recipient]);
  if (o.meter_type !== null) lines.push(['Meter type', o.meter_type]);
  if (o.customer_id) lines.push(['Customer ID', o.customer_id]);
  if (o.customer_name) lines.push(['Customer', o.customer_name]);
  if (o.quantity !== undefined) lines.push(['Quantity', String(o.quantity)]);
  // International: where and what abroad, at which rate (docs/api.md "International airtime and data").
  if (o.foreign !== undefined) {
    lines.push(['Country', o.foreign.country]);
    if (o.foreign.operator !== null) lines.push(['Operator', o.foreign.operator]);
    if (o.foreign.foreign_amount_minor !== null) lines.push(['Value abroad', `${format_minor(o.foreign.foreign_amount_minor)} ${o.foreign.currency}`]);
    if (o.foreign.rate !== null) lines.push(['Rate', `NGN ${o.foreign.rate} per ${o.foreign.currency}`]);
  }
  lines.push(['Amount', naira_text(o.amount_kobo)]);
  if (o.status === 'delivered') {
    if (o.token) lines.push(['Token', o.token]);
    if (o.units) lines.push(['Units', o.units]);
    if (o.bonus_token) lines.push(['Bonus token', o.bonus_token]);
    for (const [i, kct] of (o.key_change_tokens ?? []).entries()) lines.push([`Key change token ${i + 1}`, kct]);
    for (const [i, pin] of (input.pins ?? []).entries()) lines.push([`PIN ${i + 1}`, pin.serial === null ? pin.pin : `${pin.pin} (serial ${pin.serial})`]);
  }
  if (o.status === 'failed' && o.failure_reason) lines.push(['Reason', o.failure_reason]);
  const client_reference = client_reference_of(o);
  if (client_reference !== null) lines.push(['Your reference', client_reference]);
  const metadata = metadata_of(o);
  if (metadata !== null) for (const key of Object.keys(metadata)) lines.push([key, metadata[key]]);
  return lines;
}

/** HTML text: the five characters that can open markup or end an attribute, escaped. */
export function escape_html(text: string): string {
  return text.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'));
}

const receipt_style = 'body{font:14px/1.45 system-ui,sans-serif;margin:0;padding:24px;color:#111}main{max-width:380px;margin:auto;border:1px dashed #999;padding:16px}h1{font-size:18px;margin:0 0 2px}p{margin:0 0 12px;color:#555}dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;margin:0}dt{color:#555}dl>div{display:contents}dd{margin:0;font-weight:600;word-break:break-all}.big dd{font-family:ui-monospace,monospace;font-size:16px}footer{margin-top:14px;font-size:12px;color:#777}@media print{body{padding:0}main{border:0}}';

/** The receipt's Content-Security-Policy: its one inline style by hash, nothing else may load or run. */
export const receipt_csp = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(receipt_style).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

const emphasised = new Set(['Token', 'Bonus token', 'Units']);

export function receipt_html(input: ReceiptInput): string {
  const lines = receipt_lines(input);
  let rows = '';
  for (const [label, value] of lines) {
    const big = emphasised.has(label) || label.startsWith('PIN ') || label.startsWith('Key change token');
    rows += `<div${big ? ' class="big"' : ''}><dt>${escape_html(label)}</dt><dd>${escape_html(value)}</dd></div>`;
  }
  const name = escape_html(input.reseller_name);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Receipt ${escape_html(input.order.reference)}</title><style>${receipt_style}</style></head>`
    + `<body><main><h1>${name}</h1><p>Customer receipt</p><dl>${rows}</dl>`
    + `<footer>Amount in NGN (${kobo_to_naira(input.order.amount_kobo).toFixed(2)}). Sold by ${name} through billvend. Printed ${escape_html(lagos_time(input.generated_ms * 1000))}.</footer></main></body></html>`;
}

export async function receipt_pdf(input: ReceiptInput): Promise<Buffer> {
  const writer = pdf_writer(`Receipt ${input.order.reference}`, input.generated_ms);
  const doc = writer.doc;
  doc.font('Helvetica-Bold').fontSize(16).text(pdf_text(input.reseller_name));
  doc.font('Helvetica').fontSize(10).fillColor('#555555').text('Customer receipt');
  doc.moveDown(0.8);
  const left = doc.page.margins.left;
  const label_width = 130;
  const value_width = 320;
  for (const [label, value] of receipt_lines(input)) {
    const big = emphasised.has(label) || label.startsWith('PIN ') || label.startsWith('Key change token');
    const y = doc.y;
    doc.font('Helvetica').fontSize(10).fillColor('#555555').text(pdf_text(label), left, y, { width: label_width });
    doc.font(big ? 'Courier-Bold' : 'Helvetica-Bold').fontSize(big ? 13 : 11).fillColor('#111111').text(pdf_text(value), left + label_width, y, { width: value_width });
    doc.moveDown(0.35);
  }
  doc.moveDown(1);
  doc.font('Helvetica').fontSize(8).fillColor('#777777').text(pdf_text(`Sold by ${input.reseller_name} through billvend. Printed ${lagos_time(input.generated_ms * 1000)}.`), left);
  return writer.finish();
}
