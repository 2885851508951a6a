// CSV downloads (RFC 4180 with CRLF line ends), shared by the dashboard's exports and the public
// transactions export (docs/api.md "Transactions export").

/** A CSV cell: quoted when it holds a comma, quote or line break; a leading =+-@ is defused for spreadsheets. */
export function csv_cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
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
