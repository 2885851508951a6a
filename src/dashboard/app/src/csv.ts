// Reading a bulk purchase CSV in the browser (docs/api.md "Buying, finding and exporting in the dashboard"): RFC 4180
// fields (quotes, doubled quotes inside them, commas and line breaks inside quotes), a UTF-8 byte order
// mark at the start, CRLF, LF or CR line ends, and blank lines skipped. Bounded: the text, the rows and
// the cells of a row each have a _max; beyond any, the parse stops with an error instead of growing.
// The cells are only ever shown as text (Preact escapes it), never as HTML.

/** Characters of a file read at most (a 100-row purchase file is a few KiB). */
export const csv_chars_max = 256 * 1024;
/** Cells in one row at most. */
export const csv_cells_max = 32;

export interface CsvTable {
  header: string[];
  /** Each row with its line number in the file (the header is line 1). */
  rows: { line: number; cells: string[] }[];
}

/** Parses the text; rows_max counts the rows after the header. Throws Error with a message for a person. */
export function parse_csv(text: string, rows_max: number): CsvTable {
  if (text.length > csv_chars_max) throw new Error(`The file is larger than ${csv_chars_max / 1024} KiB.`);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const records: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let record_line = 1;
  let i = 0;
  const end_cell = () => {
    if (cells.length >= csv_cells_max) throw new Error(`Line ${record_line} has more than ${csv_cells_max} columns.`);
    cells.push(cell);
    cell = '';
  };
  const end_record = () => {
    end_cell();
    // A blank line is no row.
    if (!(cells.length === 1 && cells[0].trim() === '')) {
      if (records.length > rows_max) throw new Error(`The file has more than ${rows_max} rows: one upload places at most ${rows_max} purchases.`);
      records.push({ line: record_line, cells });
    }
    cells = [];
  };
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i += 1;
        continue;
      }
      if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line += 1;
      cell += c;
      i += 1;
      continue;
    }
    if (c === '"' && cell === '') {
      quoted = true;
      i += 1;
    } else if (c === ',') {
      end_cell();
      i += 1;
    } else if (c === '\r' || c === '\n') {
      end_record();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line += 1;
      record_line = line;
    } else {
      cell += c;
      i += 1;
    }
  }
  if (quoted) throw new Error(`Line ${record_line} opens a quote that never closes.`);
  if (cell !== '' || cells.length > 0) end_record();
  if (records.length === 0) throw new Error('The file is empty: the first line names the columns, such as service_type,phone,amount.');
  const [head, ...rows] = records;
  return { header: head.cells.map((name) => name.trim().toLowerCase()), rows };
}
