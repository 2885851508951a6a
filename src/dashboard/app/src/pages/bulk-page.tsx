// Buying in bulk from a CSV upload (docs/api.md "Buying, finding and exporting in the dashboard"): the file is read in
// the browser (csv.ts), each row shown with what is wrong with it before anything is sent; the valid
// rows go as one batch to the dashboard's twin of POST /v1/services/bulk (the same handler: one PIN
// check, each item an ordinary order, the session's authority checked at each debit), under one
// idempotency key per upload, so a double click places the batch once. The answer is shown per row:
// its order and status, or the item's own error. Rows are bounded by the bulk API's own limit.
import { useRef, useState } from 'preact/hooks';
import { ApiError, call, type Environment } from '../api.js';
import { parse_csv, type CsvTable } from '../csv.js';
import { new_intent_key } from '../intent.js';
import { bulk_items_max, naira, narrow_name, service_name, service_types } from '../format.js';
import { ErrorBanner } from '../components/feedback.js';
import { PageHeader } from '../components/layout.js';
import { StatusBadge } from '../components/status-badge.js';
import { href_of, Link } from '../router.js';

/** The purchase fields a column may name (each family's body, docs/api.md); numbers are sent as numbers. */
const text_columns = ['network', 'phone', 'plan_code', 'plan_id', 'disco', 'meter_number', 'meter_type', 'provider', 'smartcard_number', 'package_code', 'subscription_type', 'product', 'profile_id', 'account', 'client_reference'];
const number_columns = ['amount', 'quantity'];
/** Fields a row of each family needs; the server checks the rest item by item. */
const required_of: Record<string, string[]> = {
  airtime: ['phone', 'amount'],
  data: ['phone', 'amount'],
  electricity: ['disco', 'meter_number', 'meter_type', 'amount'],
  tv: ['provider', 'smartcard_number', 'amount'],
  education: ['product', 'phone', 'amount'],
  internet: ['provider', 'phone', 'amount'],
  showmax: ['plan_code', 'phone', 'amount'],
  international: ['quote_id', 'phone'],
};
/** Longest cell shown in the preview; the whole value is still sent. */
const cell_shown_max = 40;
/** The file's size read at most, before it is parsed. */
const file_bytes_max = 256 * 1024;

interface Row {
  line: number;
  item: Record<string, string | number>;
  errors: string[];
}

interface BatchItem {
  index: number;
  service_type: string;
  reference: string | null;
  status: 'processing' | 'delivered' | 'failed' | 'refused';
  client_reference: string | null;
  error: { code: string; message: string; details?: { field: string; message: string }[] } | null;
}

interface Batch {
  id: string;
  status: 'processing' | 'completed';
  items_count: number;
  counts: { processing: number; delivered: number; failed: number; refused: number };
  items: BatchItem[];
}

function shown(value: string | number | undefined): string {
  if (value === undefined) return '';
  const text = String(value);
  return text.length > cell_shown_max ? `${text.slice(0, cell_shown_max - 1)}…` : text;
}

/** The rows of the table, each with its own errors (an unknown column is every row's error). */
function rows_of(table: CsvTable): { rows: Row[]; file_errors: string[] } {
  const file_errors: string[] = [];
  const known = new Set(['service_type', ...text_columns, ...number_columns]);
  const unknown = table.header.filter((name) => !known.has(name));
  if (!table.header.includes('service_type')) file_errors.push('The first line must name a service_type column.');
  if (unknown.length > 0) file_errors.push(`Unknown columns: ${unknown.map((name) => shown(name)).join(', ')}.`);
  const families = service_types();
  const rows = table.rows.map(({ line, cells }): Row => {
    const errors: string[] = [];
    const item: Record<string, string | number> = {};
    if (cells.length > table.header.length) errors.push(`${cells.length} cells for ${table.header.length} columns`);
    table.header.forEach((name, column) => {
      const value = (cells[column] ?? '').trim();
      if (value === '' || !known.has(name)) return;
      if (number_columns.includes(name)) {
        if (!/^\d{1,9}(\.\d{1,2})?$/.test(value)) errors.push(`${name} must be a number such as 500 or 1500.50`);
        else item[name] = Number(value);
      } else item[name] = value;
    });
    const family = typeof item.service_type === 'string' ? item.service_type : '';
    if (family === '') errors.push('service_type is missing');
    else if (!families.includes(family)) errors.push(`service_type must be one of ${families.join(', ')}`);
    for (const field of required_of[family] ?? []) if (item[field] === undefined) errors.push(`${field} is missing`);
    if (typeof item.phone === 'string' && !/^0\d{10}$/.test(item.phone)) errors.push('phone must be an 11-digit number such as 08012345678');
    return { line, item, errors };
  });
  return { rows, file_errors };
}

function new_key(): string {
  return new_intent_key('dash-bulk-', 16);
}

function recipient_of(item: Record<string, string | number>): string {
  return String(item.meter_number ?? item.smartcard_number ?? item.account ?? item.phone ?? '');
}

function narrow_of(item: Record<string, string | number>): string {
  const code = item.network ?? item.disco ?? item.provider ?? item.product;
  return code === undefined ? '' : narrow_name(String(code));
}

export function BulkPage({ environment }: { environment: Environment }) {
  const rows_max = bulk_items_max();
  const [file_name, set_file_name] = useState('');
  const [rows, set_rows] = useState<Row[] | null>(null);
  const [file_errors, set_file_errors] = useState<string[]>([]);
  const [pin, set_pin] = useState('');
  const [sending, set_sending] = useState(false);
  const [error, set_error] = useState<ApiError | null>(null);
  const [batch, set_batch] = useState<Batch | null>(null);
  // The rows sent, in the batch's index order: item i of the answer is sent[i].
  const [sent, set_sent] = useState<Row[]>([]);
  const key = useRef('');
  const in_flight = useRef(false);

  const read = async (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    set_error(null);
    set_batch(null);
    set_rows(null);
    set_file_errors([]);
    if (file === undefined) return;
    set_file_name(file.name);
    // A new file is a new intent: a new key.
    key.current = new_key();
    if (file.size > file_bytes_max) return set_file_errors([`The file is larger than ${file_bytes_max / 1024} KiB.`]);
    try {
      const table = parse_csv(await file.text(), rows_max);
      const read_rows = rows_of(table);
      set_rows(read_rows.rows);
      set_file_errors(read_rows.file_errors);
    } catch (failure) {
      set_file_errors([(failure as Error).message]);
    }
  };

  const valid = (rows ?? []).filter((row) => row.errors.length === 0);
  const total = valid.reduce((sum, row) => sum + (typeof row.item.amount === 'number' ? row.item.amount : 0), 0);
  const can_send = file_errors.length === 0 && valid.length > 0 && /^\d{5}$/.test(pin) && !sending && batch === null;

  const send = async (event: Event) => {
    event.preventDefault();
    if (!can_send || in_flight.current) return;
    in_flight.current = true;
    set_sending(true);
    set_error(null);
    try {
      const { data } = await call<Batch>('POST', '/services/bulk', { environment, body: { pin, items: valid.map((row) => row.item) }, idempotency_key: key.current });
      set_sent(valid);
      set_batch(data);
    } catch (failure) {
      set_error(failure instanceof ApiError ? failure : new ApiError(0, 'internal.error', String(failure)));
    } finally {
      set_pin('');
      in_flight.current = false;
      set_sending(false);
    }
  };

  const refresh = async () => {
    if (batch === null) return;
    try {
      const { data } = await call<Batch>('GET', `/services/bulk/${encodeURIComponent(batch.id)}`, { environment });
      set_batch(data);
    } catch (failure) {
      set_error(failure instanceof ApiError ? failure : new ApiError(0, 'internal.error', String(failure)));
    }
  };

  return (
    <>
      <PageHeader title="Buy in bulk">
        <Link href={href_of('/buy', environment)} class="button button-small">
          One purchase
        </Link>
      </PageHeader>
      <section class="card form" aria-labelledby="bulk-title">
        <h2 id="bulk-title">Upload a CSV file</h2>
        <p class="muted small">
          One purchase per line, up to {rows_max}. The first line names the columns: <code>service_type</code> ({service_types().join(', ')}) and the
          purchase's fields, such as <code>network</code>, <code>phone</code>, <code>amount</code>, <code>plan_code</code>, <code>disco</code>,{' '}
          <code>meter_number</code>, <code>meter_type</code>, <code>provider</code>, <code>smartcard_number</code>, <code>package_code</code>,{' '}
          <code>product</code>, <code>quantity</code>, <code>account</code>, <code>client_reference</code>.
        </p>
        <label class="field">
          <span>CSV file</span>
          <input type="file" name="csv" accept=".csv,text/csv" onChange={read} data-testid="bulk-file" />
        </label>
        {file_errors.length > 0 && (
          <div class="banner banner-error" role="alert" data-testid="bulk-file-errors">
            {file_errors.map((text) => <p key={text} class="banner-text">{text}</p>)}
          </div>
        )}
      </section>
      {rows !== null && batch === null && (
        <form class="card form" onSubmit={send} aria-labelledby="bulk-preview-title" data-testid="bulk-preview">
          <h2 id="bulk-preview-title">
            {file_name}: {rows.length} row{rows.length === 1 ? '' : 's'}, <span data-testid="bulk-valid-count">{valid.length}</span> ready
          </h2>
          <div class="table-scroll">
            <table class="table">
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col">Service</th>
                  <th scope="col">Recipient</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Your reference</th>
                  <th scope="col">Check</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.line} data-testid="bulk-row" data-line={row.line} class={row.errors.length > 0 ? 'row-invalid' : undefined}>
                    <td data-label="Line">{row.line}</td>
                    <td data-label="Service">
                      {service_name(String(row.item.service_type ?? ''))}
                      {narrow_of(row.item) && <span class="muted small"> · {shown(narrow_of(row.item))}</span>}
                    </td>
                    <td data-label="Recipient" class="mono">{shown(recipient_of(row.item))}</td>
                    <td data-label="Amount" class="num">{typeof row.item.amount === 'number' ? naira(row.item.amount) : '—'}</td>
                    <td data-label="Your reference" class="mono" data-testid="bulk-row-reference">{shown(row.item.client_reference)}</td>
                    <td data-label="Check" data-testid="bulk-row-check">
                      {row.errors.length === 0 ? '✓ Ready' : <span class="error-text">{row.errors.join('; ')} (not sent)</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ErrorBanner error={error} />
          <p>
            {valid.length} purchase{valid.length === 1 ? '' : 's'}, face value <strong data-testid="bulk-total">{naira(total)}</strong>, from your{' '}
            {environment === 'live' ? 'live wallet' : 'test wallet (sandbox)'}; rows with a problem are not sent.
          </p>
          <label class="field field-narrow">
            <span>Transaction PIN</span>
            <input name="pin" type="password" inputMode="numeric" autoComplete="off" pattern="[0-9]{5}" maxLength={5} required value={pin} onInput={(e) => set_pin(e.currentTarget.value)} />
          </label>
          <button type="submit" class="button button-primary" disabled={!can_send} aria-busy={sending ? 'true' : undefined}>
            {sending ? 'Placing…' : `Place ${valid.length} purchase${valid.length === 1 ? '' : 's'}`}
          </button>
        </form>
      )}
      {batch !== null && (
        <section class="card" aria-labelledby="bulk-result-title" data-testid="bulk-result">
          <div class="card-header">
            <h2 id="bulk-result-title">
              Batch <span class="mono">{batch.id}</span>: {batch.status === 'completed' ? 'completed' : 'processing'}
            </h2>
            <button type="button" class="button button-small" onClick={refresh}>
              Refresh
            </button>
          </div>
          <p class="muted small" data-testid="bulk-counts">
            {batch.counts.delivered} delivered · {batch.counts.processing} processing · {batch.counts.failed} failed · {batch.counts.refused} refused
          </p>
          <div class="table-scroll">
            <table class="table">
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col">Service</th>
                  <th scope="col">Recipient</th>
                  <th scope="col">Result</th>
                  <th scope="col">Order</th>
                </tr>
              </thead>
              <tbody>
                {batch.items.map((item) => {
                  const row = sent[item.index];
                  return (
                    <tr key={item.index} data-testid="bulk-result-row" data-line={row?.line} data-status={item.status}>
                      <td data-label="Line">{row?.line ?? item.index + 1}</td>
                      <td data-label="Service">{service_name(item.service_type)}</td>
                      <td data-label="Recipient" class="mono">{row ? shown(recipient_of(row.item)) : ''}</td>
                      <td data-label="Result">
                        <StatusBadge status={item.status} />
                        {item.error && <span class="muted small block" data-testid="bulk-result-error">{item.error.message}</span>}
                      </td>
                      <td data-label="Order">
                        {item.reference !== null ? (
                          <Link href={href_of(`/orders/${encodeURIComponent(item.reference)}`, environment)} class="mono">
                            {item.reference}
                          </Link>
                        ) : '—'}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </>
  );
}
