// CSV downloads (RFC 4180 with CRLF line ends), shared by the dashboard's exports and the public
// transactions export (docs/api.md "Transactions export").

/**
 * The first characters a spreadsheet reads as the start of a formula: = + - @, a tab and a carriage
 * return (OWASP's list), and the full-width ＝ ＋ － ＠ that some spreadsheets fold into them.
 */
const formula_start = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * A CSV cell: defused when a spreadsheet would read it as a formula (a leading `'`, whatever follows:
 * `-1+HYPERLINK(...)` is as live as `=HYPERLINK(...)`), then quoted when it holds a comma, quote or line
 * break. Every cell is text to the guard, with no exception for what looks like a number: the figures we
 * write ourselves (amounts, balances, commissions, counts) are never negative, so they start with a digit
 * and stay numbers, and a cell that starts with `-` is someone's text (a reference, a name, metadata).
 * docs/api.md "Transactions export" states the rule.
 */
export function csv_cell(value: string): string {
  const safe = formula_start.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV line, its line end included. */
export function csv_line(cells: readonly string[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) line += (i === 0 ? '' : ',') + csv_cell(cells[i]);
  return line + '\r\n';
}

export const csv_content_type = 'text/csv; charset=utf-8';

/**
 * Headers of a CSV download: a file to save, never cached. Not sniffed as something else either, but that
 * header comes with every reply that brings its own content type (front/security-headers.ts): sent here too,
 * it went out twice.
 */
export function csv_download_headers(filename: string): [string, string][] {
  return [['Content-Disposition', `attachment; filename="${filename}"`], ['Cache-Control', 'no-store']];
}
