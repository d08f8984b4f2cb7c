/**
 * Reads back what a pdfkit document says, for tests of any plugin's PDFs: the page count and
 * the text of every text operator (Identity-H glyph codes through the embedded font's
 * ToUnicode map, or single-byte WinAnsi codes for the built-in fonts).
 */
import zlib from 'node:zlib';

export function pdfPages(pdf: Buffer): number {
  return (pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? []).length;
}

export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const streams: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index! + m[0].length;
    const end = raw.indexOf('endstream', start);
    const bytes = pdf.subarray(start, end);
    try {
      streams.push(zlib.inflateSync(bytes).toString('latin1'));
    } catch {
      streams.push(bytes.toString('latin1'));
    }
  }
  // ToUnicode: <first> <last> [<utf16> …]
  const map = new Map<number, string>();
  for (const s of streams.filter((x) => x.includes('beginbfrange'))) {
    for (const r of s.matchAll(/<([0-9a-f]+)> <([0-9a-f]+)> \[([^\]]*)\]/gi)) {
      const first = parseInt(r[1], 16);
      [...r[3].matchAll(/<([0-9a-f ]+)>/gi)].forEach((u, i) => map.set(first + i, String.fromCharCode(...u[1].split(' ').map((h) => parseInt(h, 16)))));
    }
  }
  const out: string[] = [];
  for (const s of streams) {
    for (const op of s.matchAll(/(\[(?:[^\]]*)\]) TJ|(<[0-9a-f]*>) Tj/gi)) {
      const hexes = [...(op[1] ?? op[2]).matchAll(/<([0-9a-f]*)>/gi)].map((h) => h[1]);
      const width = map.size ? 4 : 2;
      out.push(
        hexes
          .map((h) =>
            (h.match(new RegExp(`.{${width}}`, 'g')) ?? [])
              .map((c) => (map.size ? (map.get(parseInt(c, 16)) ?? '') : String.fromCharCode(parseInt(c, 16))))
              .join(''),
          )
          .join(''),
      );
    }
  }
  return out.join('\n');
}
