/**
 * PDF primitives several plugins share (pdfkit, vector): a document in the caller's language
 * — the Noto CJK collection's face for that language when the font is installed
 * (fonts-noto-cjk; PDF_FONT overrides the path), else Helvetica with English words and
 * characters outside Latin-1 printed as "?" — and a ruled table that breaks across pages.
 */
import fs from 'node:fs';
import PDFDocument from 'pdfkit';
import qrcode from 'qrcode-generator';
import type { Writable } from 'node:stream';

export type PdfLanguage = 'en-US' | 'zh-CN' | 'ja-JP';

export const CJK_FONT_FILE = () => process.env.PDF_FONT ?? process.env.MAP_PDF_FONT ?? '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
/** whether the CJK font is installed (else documents are worded in English) */
export const cjkFontAvailable = (): boolean => fs.existsSync(CJK_FONT_FILE());
/** face inside the Noto CJK collection whose glyph shapes suit the language */
const FACE: Record<PdfLanguage, string> = { 'zh-CN': 'NotoSansCJKsc-Regular', 'ja-JP': 'NotoSansCJKjp-Regular', 'en-US': 'NotoSansCJKsc-Regular' };

export const PDF_COLORS = { ink: '#1f2a44', text: '#262626', muted: '#8c8c8c', rule: '#d9d9d9', head: '#fafafa' };

export interface OpenPdf {
  doc: PDFKit.PDFDocument;
  /** whether the CJK font is embedded (else only Latin-1 prints) */
  cjk: boolean;
  /** the language the words must be in: the caller's, or en-US without the CJK font */
  language: PdfLanguage;
  /** a value as printable text ("-" for nothing) */
  txt(v: unknown): string;
  /** resolves when the output stream has everything */
  done: Promise<void>;
}

/** Starts an A4 document piped into out, with the body font chosen for the language. */
export function openPdf(out: Writable, o: { language: PdfLanguage; title: string; margin?: number }): OpenPdf {
  const file = CJK_FONT_FILE();
  const cjk = cjkFontAvailable();
  const doc = new PDFDocument({ size: 'A4', margin: o.margin ?? 40, info: { Title: o.title, Author: 'RTI Console' } });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
  });
  doc.pipe(out);
  if (cjk) doc.registerFont('body', file, /\.(ttc|otc)$/i.test(file) ? FACE[o.language] : undefined);
  doc.font(cjk ? 'body' : 'Helvetica');
  const txt = (v: unknown) => (v === null || v === undefined || v === '' ? '-' : cjk ? String(v) : String(v).replace(/[^\x20-\xff]/g, '?'));
  return { doc, cjk, language: cjk ? o.language : 'en-US', txt, done };
}

/**
 * A ruled table at the cursor: `fractions` of the text width per column; with `header` the
 * first row is shaded and repeated on every new page.
 */
export function pdfTable(
  doc: PDFKit.PDFDocument,
  fractions: readonly number[],
  rows: readonly string[][],
  o: { header?: boolean; labelCols?: readonly number[]; rowHeight?: number } = {},
): void {
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const rowH = o.rowHeight ?? 16;
  const draw = (row: readonly string[], head: boolean) => {
    const y0 = doc.y;
    if (head) doc.rect(left, y0, width, rowH).fill(PDF_COLORS.head);
    let x = left;
    for (const [ci, cell] of row.entries()) {
      const w = (fractions[ci] ?? 0) * width;
      const muted = head || o.labelCols?.includes(ci);
      doc
        .fontSize(8.5)
        .fillColor(muted ? PDF_COLORS.muted : PDF_COLORS.text)
        .text(cell, x + 4, y0 + 4, { width: Math.max(1, w - 8), height: rowH - 4, lineBreak: false, ellipsis: true });
      x += w;
    }
    doc
      .moveTo(left, y0 + rowH)
      .lineTo(left + width, y0 + rowH)
      .lineWidth(0.5)
      .strokeColor(PDF_COLORS.rule)
      .stroke();
    doc.x = left;
    doc.y = y0 + rowH;
  };
  for (const [ri, row] of rows.entries()) {
    const head = !!o.header && ri === 0;
    if (doc.y + rowH > doc.page.height - doc.page.margins.bottom) {
      doc.addPage();
      if (o.header && !head) draw(rows[0], true);
    }
    draw(row, head);
  }
}

/** Draws a QR code of text as vector squares, size × size points, at (x, y). */
export function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number): void {
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  const n = qr.getModuleCount();
  // the 4-module quiet zone ISO 18004 asks for, so phone scanners find the code on any paper
  const quiet = 4;
  const cell = size / (n + 2 * quiet);
  doc.save();
  doc.rect(x, y, size, size).fill('#ffffff');
  doc.fillColor('#000000');
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (qr.isDark(r, c)) doc.rect(x + (c + quiet) * cell, y + (r + quiet) * cell, cell, cell);
  doc.fill('#000000');
  doc.restore();
}
