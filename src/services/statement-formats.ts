// A statement's three forms (docs/api.md "Statements"): JSON in the API's envelope, CSV (RFC 4180, one
// table) and PDF. Each is built whole before it is sent, since the signature covers the exact bytes, but
// a slice of lines at a time with a turn of the event loop between slices.
import { kobo_to_naira } from '../lib/money.js';
import { iso_us } from '../lib/time-format.js';
import { csv_line } from '../lib/csv.js';
import type { ServiceSums, StatementData, StatementLine, Sum } from './statements.js';
import { naira_text, pdf_text, pdf_writer } from './pdf-document.js';

/**
 * Lines turned into text (JSON, CSV) or drawn (PDF) per event-loop turn. Drawing is the slow part (pdfkit lays
 * out each cell): 200 lines a turn held the loop up to 171 ms on a loaded 2-core machine for a day of 5,000
 * entries. While V8 has not yet compiled pdfkit's layout code (a process's first statements) 25 lines took
 * 30-60 ms of CPU a turn, 10 lines take 10-28 ms, and 2-15 ms once warm (docs/operations.md "Nothing long on
 * the event loop"); the fonts themselves are loaded at start-up (pdf-document.ts warm_up_pdf).
 */
export const statement_format_slice = 1_000;
export const statement_pdf_slice = 10;

export type StatementFormat = 'json' | 'csv' | 'pdf';

function sum_view(sum: Sum) {
  return { count: sum.count, amount: kobo_to_naira(sum.amount_kobo) };
}

export function service_sums_view(s: ServiceSums) {
  return {
    service_type: s.service_type,
    debits: sum_view(s.debits),
    reversals: sum_view(s.reversals),
    face_value: kobo_to_naira(s.face_value_kobo),
    commission: kobo_to_naira(s.commission_kobo),
  };
}

export function totals_view(data: Pick<StatementData, 'by_type' | 'by_service'>) {
  return {
    by_type: {
      credit: sum_view(data.by_type.credit),
      debit: sum_view(data.by_type.debit),
      reversal: sum_view(data.by_type.reversal),
      commission: sum_view(data.by_type.commission),
      // Only on a day that had transfers, so that every other statement reads as it always did.
      ...(data.by_type.transfer_in.count === 0 ? {} : { transfer_in: sum_view(data.by_type.transfer_in) }),
      ...(data.by_type.transfer_out.count === 0 ? {} : { transfer_out: sum_view(data.by_type.transfer_out) }),
      // Only on a day an agent's order earned (or gave back) a commission.
      ...(data.by_type.agent_commission.count === 0 ? {} : { agent_commission: sum_view(data.by_type.agent_commission) }),
      ...(data.by_type.commission_reversal.count === 0 ? {} : { commission_reversal: sum_view(data.by_type.commission_reversal) }),
    },
    by_service: data.by_service.map(service_sums_view),
  };
}

export function line_view(line: StatementLine) {
  return {
    id: line.id,
    type: line.type,
    amount: kobo_to_naira(line.amount_kobo),
    reference: line.reference,
    balance_before: kobo_to_naira(line.balance_before_kobo),
    balance_after: kobo_to_naira(line.balance_after_kobo),
    created_at: iso_us(line.created_us),
    description: line.description,
    service_type: line.service_type,
    face_value: line.face_value_kobo === null ? null : kobo_to_naira(line.face_value_kobo),
    commission: line.commission_kobo === null ? null : kobo_to_naira(line.commission_kobo),
  };
}

/** Everything but the entries, in the order the JSON shows it. */
function head_view(data: StatementData) {
  const who = data.scope.kind === 'account' ? { account_id: data.scope.account_id, account_name: data.scope.account_name } : { accounts: data.scope.accounts };
  return {
    ...who,
    environment: data.environment,
    date: data.date,
    time_zone: 'Africa/Lagos',
    from: iso_us(data.from_us),
    to: iso_us(data.to_us),
    final: data.final,
    generated_at: iso_us(data.generated_us),
    currency: 'NGN',
    opening_balance: kobo_to_naira(data.opening_kobo),
    closing_balance: kobo_to_naira(data.closing_kobo),
  };
}

export async function statement_json(data: StatementData, request_id: string, next_turn: () => Promise<void>): Promise<Buffer> {
  const head = JSON.stringify(head_view(data));
  let entries = '';
  for (let i = 0; i < data.lines.length; i++) {
    if (i > 0 && i % statement_format_slice === 0) await next_turn();
    entries += (i === 0 ? '' : ',') + JSON.stringify(line_view(data.lines[i]));
  }
  const totals = JSON.stringify(totals_view(data));
  // The head's object is closed, then reopened with entries and totals: the same members in one object.
  const data_text = `${head.slice(0, -1)},"entries":[${entries}],"totals":${totals}}`;
  return Buffer.from(`{"success":true,"data":${data_text},"request_id":${JSON.stringify(request_id)}}`, 'utf8');
}

export const statement_csv_header = ['row', 'id', 'type', 'amount', 'reference', 'balance_before', 'balance_after', 'created_at', 'service_type', 'face_value', 'commission', 'description'] as const;

const money = (kobo: number) => kobo_to_naira(kobo).toFixed(2);

/**
 * One table: an `opening` row (its balance_after is the opening balance), an `entry` row per wallet entry,
 * a `closing` row, then `total` rows (by entry type, then by service: type names the sum, service_type the
 * service). Amounts are NGN with 2 decimals.
 */
export async function statement_csv(data: StatementData, next_turn: () => Promise<void>): Promise<Buffer> {
  const day_end = iso_us(data.to_us);
  let text = csv_line(statement_csv_header);
  text += csv_line(['opening', '', '', '', '', '', money(data.opening_kobo), iso_us(data.from_us), '', '', '', `Opening balance ${data.date} (Africa/Lagos)${data.final ? '' : ', provisional'}`]);
  for (let i = 0; i < data.lines.length; i++) {
    if (i > 0 && i % statement_format_slice === 0) await next_turn();
    const l = data.lines[i];
    text += csv_line([
      'entry', String(l.id), l.type, money(l.amount_kobo), l.reference, money(l.balance_before_kobo), money(l.balance_after_kobo), iso_us(l.created_us),
      l.service_type ?? '', l.face_value_kobo === null ? '' : money(l.face_value_kobo), l.commission_kobo === null ? '' : money(l.commission_kobo), l.description,
    ]);
  }
  text += csv_line(['closing', '', '', '', '', '', money(data.closing_kobo), data.final ? day_end : iso_us(data.generated_us), '', '', '', `Closing balance ${data.date}${data.final ? '' : ' so far (provisional)'}`]);
  for (const type of ['credit', 'debit', 'reversal', 'commission', 'transfer_in', 'transfer_out', 'agent_commission', 'commission_reversal'] as const) {
    const sum = data.by_type[type];
    if ((type === 'transfer_in' || type === 'transfer_out' || type === 'agent_commission' || type === 'commission_reversal') && sum.count === 0) continue;
    text += csv_line(['total', String(sum.count), type, signed_money(sum.amount_kobo), '', '', '', '', '', '', '', `Total ${type}`]);
  }
  for (const s of data.by_service) {
    text += csv_line(['total', String(s.debits.count), 'debit', money(s.debits.amount_kobo), '', '', '', '', s.service_type, money(s.face_value_kobo), signed_money(s.commission_kobo), `Total ${s.service_type} debits`]);
    text += csv_line(['total', String(s.reversals.count), 'reversal', money(s.reversals.amount_kobo), '', '', '', '', s.service_type, '', '', `Total ${s.service_type} reversals`]);
  }
  return Buffer.from(text, 'utf8');
}

/**
 * A total that may be below zero: the day's net commission when it refunds orders debited the day before.
 * lib/csv.ts defuses a cell starting with "-" as a formula, so such a figure is written in the accounting
 * form, (1.25), which spreadsheets read as -1.25.
 */
function signed_money(kobo: number): string {
  return kobo < 0 ? `(${money(-kobo)})` : money(kobo);
}

const columns = [
  { title: 'Time (Lagos)', width: 62 },
  { title: 'Type', width: 44 },
  { title: 'Reference', width: 150 },
  { title: 'Service', width: 58 },
  { title: 'Amount', width: 70, right: true },
  { title: 'Commission', width: 58, right: true },
  { title: 'Balance after', width: 73, right: true },
] as const;

function lagos_time(us: number): string {
  return new Date(Math.floor(us / 1000) + 3_600_000).toISOString().slice(11, 19);
}

function draw_row(doc: PDFKit.PDFDocument, cells: string[], y: number, bold = false): void {
  let x = doc.page.margins.left;
  doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
  for (let i = 0; i < columns.length; i++) {
    const column = columns[i];
    doc.text(pdf_text(cells[i]), x, y, { width: column.width - 4, align: 'right' in column ? 'right' : 'left', lineBreak: false, ellipsis: true });
    x += column.width;
  }
}

export async function statement_pdf(data: StatementData, next_turn: () => Promise<void>): Promise<Buffer> {
  const who = data.scope.kind === 'account' ? `${data.scope.account_name} (account ${data.scope.account_id})` : `All accounts (${data.scope.accounts})`;
  const writer = pdf_writer(`billvend statement ${data.date}`, Math.floor(data.generated_us / 1000));
  const doc = writer.doc;
  doc.font('Helvetica-Bold').fontSize(16).text('billvend daily statement');
  doc.moveDown(0.3);
  doc.font('Helvetica').fontSize(10);
  doc.text(pdf_text(who));
  doc.text(`Day ${data.date} (Africa/Lagos, ${iso_us(data.from_us)} to ${iso_us(data.to_us)}), ${data.environment} environment`);
  doc.text(data.final ? 'Final: the day is over.' : `Provisional: the day is not over (generated ${iso_us(data.generated_us)}).`);
  doc.moveDown(0.5);
  doc.font('Helvetica-Bold').text(`Opening balance ${naira_text(data.opening_kobo)}    Closing balance ${naira_text(data.closing_kobo)}`);
  doc.moveDown(0.5);
  doc.font('Helvetica').fontSize(9);
  const t = data.by_type;
  doc.text(`Credits ${t.credit.count}: ${naira_text(t.credit.amount_kobo)}.  Debits ${t.debit.count}: ${naira_text(t.debit.amount_kobo)}.  Reversals (refunds) ${t.reversal.count}: ${naira_text(t.reversal.amount_kobo)}.  Commission earned: ${naira_text(t.commission.amount_kobo)}.${t.transfer_in.count + t.transfer_out.count === 0 ? '' : `  Transfers in ${t.transfer_in.count}: ${naira_text(t.transfer_in.amount_kobo)}.  Transfers out ${t.transfer_out.count}: ${naira_text(t.transfer_out.amount_kobo)}.`}`);
  for (const s of data.by_service) {
    doc.text(`${s.service_type}: ${s.debits.count} debits ${naira_text(s.debits.amount_kobo)} (face value ${naira_text(s.face_value_kobo)}), ${s.reversals.count} reversals ${naira_text(s.reversals.amount_kobo)}, commission ${naira_text(s.commission_kobo)}`);
  }
  doc.moveDown(0.8);
  const bottom = () => doc.page.height - doc.page.margins.bottom - 12;
  let y = doc.y;
  draw_row(doc, columns.map((c) => c.title), y, true);
  y += 13;
  for (let i = 0; i < data.lines.length; i++) {
    if (i > 0 && i % statement_pdf_slice === 0) await next_turn();
    if (y > bottom()) {
      doc.addPage();
      y = doc.page.margins.top;
      draw_row(doc, columns.map((c) => c.title), y, true);
      y += 13;
    }
    const l = data.lines[i];
    const sign = l.type === 'debit' ? '-' : '+';
    draw_row(doc, [
      lagos_time(l.created_us), l.type, l.reference, l.service_type ?? '', `${sign}${naira_text(l.amount_kobo)}`,
      l.commission_kobo === null ? '' : naira_text(l.commission_kobo), naira_text(l.balance_after_kobo),
    ], y);
    y += 11;
  }
  if (data.lines.length === 0) doc.font('Helvetica').fontSize(9).text('No wallet entries on this day.', doc.page.margins.left, y);
  doc.font('Helvetica').fontSize(7).text(
    'Signed by billvend with Ed25519: the Billvend-Signature header of this download covers its exact bytes; the public key is at GET /v1/statements/public-key.',
    doc.page.margins.left, Math.min(y + 20, bottom()), { width: doc.page.width - doc.page.margins.left - doc.page.margins.right },
  );
  return writer.finish();
}
