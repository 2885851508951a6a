// PDFs of statements and receipts (docs/api.md "Statements", "Receipts and re-delivery"), drawn with pdfkit's standard
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

/** The standard fonts the statements and receipts draw with. */
const fonts_used = ['Helvetica', 'Helvetica-Bold', 'Courier-Bold'] as const;

/**
 * Draws a throwaway one-page document in every font the PDFs use, once at start-up: pdfkit loads a standard
 * font's metrics (a module of its own) and compiles its layout code on a process's first document, a pause of
 * 50-100 ms on a loaded machine that otherwise fell inside the first statement or receipt asked for
 * (docs/operations.md "Nothing long on the event loop"). Resolves once the document is written.
 */
export function warm_up_pdf(): Promise<Buffer> {
  const writer = pdf_writer('warm-up', 0);
  for (const font of fonts_used) writer.doc.font(font).fontSize(8).text('NGN 1,234.50 BV-20260101-0000000000AB', 40, 40, { width: 200, lineBreak: false, ellipsis: true });
  return writer.finish();
}

/** NGN 1,234.50 from kobo (integers only: no float touches the amount). */
export function naira_text(kobo: number): string {
  const sign = kobo < 0 ? '-' : '';
  const abs = Math.abs(kobo);
  const whole = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}NGN ${whole}.${String(abs % 100).padStart(2, '0')}`;
}
