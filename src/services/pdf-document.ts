// PDFs of statements and receipts (docs/api.md "Statements", "Receipts"), drawn with pdfkit's standard
// Helvetica: no font file to ship or embed. Those fonts encode WinAnsi (Latin-1) only, so text from
// outside (a recipient, metadata, a name) is reduced to it first: any other character becomes "?" rather
// than a glyph pdfkit would encode wrongly. A document is drawn a bounded slice at a time by its caller
// (next_turn between slices); the bytes are collected as pdfkit emits them.
import PDFDocument from 'pdfkit';

/** The text a standard PDF font can show: printable Latin-1, the rest as "?". */
export function pdf_text(value: string): string {
  return value.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

export interface PdfWriter {
  doc: PDFKit.PDFDocument;
  /** Ends the document and resolves with its bytes. */
  finish(): Promise<Buffer>;
}

export function pdf_writer(title: string, created_ms: number): PdfWriter {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 40,
    bufferPages: false,
    info: { Title: pdf_text(title), Author: 'billvend', Producer: 'billvend', Creator: 'billvend', CreationDate: new Date(created_ms) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return {
    doc,
    finish: () => {
      doc.end();
      return ended;
    },
  };
}

/** NGN 1,234.50 from kobo (integers only: no float touches the amount). */
export function naira_text(kobo: number): string {
  const sign = kobo < 0 ? '-' : '';
  const abs = Math.abs(kobo);
  const whole = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}NGN ${whole}.${String(abs % 100).padStart(2, '0')}`;
}
