/**
 * Delivery note / packing manifest PDF (/ship-order/print): per order, per container and one
 * manifest per container; words in the caller's language (CJK font), and a QR code whose
 * content is the public page of that order.
 */
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import qrcode from 'qrcode-generator';
import { pdfText } from '@rti/server/pdf-text';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { ok, shipOrder, world, type World } from './support-orders';

let ts: TestServer;
let w: World;

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping'] });
  w = await world(ts);
});
afterAll(() => ts?.close());

/** the page content streams, inflated */
function streams(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const out: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index! + m[0].length;
    const bytes = pdf.subarray(start, raw.indexOf('endstream', start));
    try {
      out.push(zlib.inflateSync(bytes).toString('latin1'));
    } catch {
      out.push(bytes.toString('latin1'));
    }
  }
  return out.join('\n');
}
const pages = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? []).length;

async function print(body: Record<string, unknown>, language: 'en-US' | 'zh-CN' | 'ja-JP' = 'en-US'): Promise<{ pdf: Buffer; res: Response }> {
  const res = await ts.a.fetch('/ship-order/print', body, { language, headers: { Origin: 'https://rti.example.com' } });
  return { pdf: Buffer.from(await res.arrayBuffer()), res };
}

describe('/ship-order/print', () => {
  it('prints the order with a QR code of its public page', async () => {
    const o = await shipOrder(ts.a, w, 5, {}, ['BOX-A', 'BOX-B']);
    const { pdf, res } = await print({ id: o.id });
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain(`${o.orderNo}.pdf`);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pages(pdf)).toBe(1);
    const { token } = await ok(ts.a, '/ship-order/info/link', { id: o.id });
    // the code drawn is exactly the QR of the public URL: its dark modules as filled squares
    const qr = qrcode(0, 'M');
    qr.addData(`https://rti.example.com/info/ship-order?token=${token}`, 'Byte');
    qr.make();
    const n = qr.getModuleCount();
    const expected = new Set<string>();
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (qr.isDark(r, c)) expected.add(`${r},${c}`);
    // the module squares drawn (all the same size: 110 pt over the modules and a 4-module quiet zone)
    const cell = 110 / (n + 8);
    const squares = [...streams(pdf).matchAll(/([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) re/g)]
      .map((m) => m.slice(1, 5).map(Number))
      .filter(([, , w, h]) => Math.abs(w - cell) < 0.01 && Math.abs(h - cell) < 0.01);
    const x0 = Math.min(...squares.map((q) => q[0]));
    const y0 = Math.min(...squares.map((q) => q[1]));
    const drawn = new Set(squares.map(([x, y]) => `${Math.round((y - y0) / cell)},${Math.round((x - x0) / cell)}`));
    expect(drawn).toEqual(expected);
    // and the public page of that token shows this order
    expect((await ts.call('/info/ship-order', { token })).body.data).toMatchObject({ order: { orderNo: o.orderNo } });
  });

  it('prints one container, or one manifest per container, and refuses a container not on the order', async () => {
    const o = await shipOrder(ts.a, w, 4, {}, ['CX-1', 'CX-2']);
    const one = await print({ id: o.id, containerNo: 'CX-1' });
    expect(one.res.headers.get('content-disposition')).toContain(`${o.orderNo}-CX-1.pdf`);
    expect(pages(one.pdf)).toBe(1);
    const each = await print({ id: o.id, perContainer: true });
    expect(pages(each.pdf)).toBe(2);
    const none = await ts.a.call('/ship-order/print', { id: o.id, containerNo: 'NOPE' });
    expect(none.body.code).toBe(10002);
    const foreign = await ts.b.call('/ship-order/print', { id: o.id });
    expect(foreign.body.code).toBe(10002);
    expect((await ts.a.call('/ship-order/print', { id: 'x' })).body.code).not.toBe(0);
  });

  it('is worded in the caller language (CJK font embedded)', async () => {
    const o = await shipOrder(ts.a, w, 1);
    const zh = await print({ id: o.id }, 'zh-CN');
    const ja = await print({ id: o.id }, 'ja-JP');
    const en = await print({ id: o.id }, 'en-US');
    const font = (pdf: Buffer) =>
      pdf.toString('latin1').match(/\/BaseFont \/[A-Z]{6}\+([\w-]+)/)?.[1] ?? pdf.toString('latin1').match(/\/BaseFont \/([\w-]+)/)?.[1];
    expect(font(zh.pdf)).toBe('NotoSansCJKsc-Regular');
    expect(font(ja.pdf)).toBe('NotoSansCJKjp-Regular');
    expect(pdfText(zh.pdf)).toContain('送货单 / 装箱清单');
    expect(pdfText(zh.pdf)).toContain('发货方签字');
    expect(pdfText(ja.pdf)).toContain('納品書 / 梱包明細');
    expect(pdfText(en.pdf)).toContain('Delivery note / packing manifest');
    expect(pdfText(en.pdf)).toContain(o.orderNo);
  });
});
