/**
 * A document's printed form (metadata `print`) over a fixture declaration on a core document
 * (carrier binding, whose lines carry a quantity rolled up into the header): the header's
 * values as the export shows them, the lines grouped with the roll-up summed per group, one
 * group or one page run per group, the caller's scope and language, and the loader's check.
 */
import { checkMetadata, loadMetadata } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../src/pdf/pdf-text';
import { callOk, createMasterForCarriers, createSample } from './support/fixtures';
import { startTestServer, type TestServer } from './support/test-server';

const metadata = loadMetadata();
metadata.resources['carrier-bind'].print = {
  title: 'fields.bindNo',
  fields: ['status', 'carrierId', 'totalAmount', 'remark'],
  lines: { fields: ['carrierId', 'qty'], groupBy: 'remark', perGroup: 'eachGroup', rollUps: ['totalAmount'] },
  signatures: ['fields.remark'],
};

let ts: TestServer;
const refs: Record<string, number> = {};
let n = 700;
const pages = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? []).length;

beforeAll(async () => {
  ts = await startTestServer({ metadata });
  refs.organization = ts.orgA;
  n = await createMasterForCarriers(ts, ts.a, refs, n);
});
afterAll(() => ts?.close());

async function bind(): Promise<{ id: number; bindNo: string; sns: string[] }> {
  const cs = await Promise.all(Array.from({ length: 4 }, () => createSample(ts, ts.a, 'carrier', n++, refs, { beaconId: null, gpsId: null })));
  const saved = await callOk(ts.a, '/carrier-bind/save', {
    carrierId: cs[0].id,
    remark: 'printed remark',
    lines: [
      { carrierId: cs[1].id, qty: 2, remark: 'G1' },
      { carrierId: cs[2].id, qty: 3, remark: 'G1' },
      { carrierId: cs[3].id, qty: 7, remark: 'G2' },
    ],
  });
  return { id: saved.id, bindNo: saved.bindNo, sns: cs.map((c) => String(c.sn)) };
}

async function print(body: Record<string, unknown>, language = 'en-US'): Promise<{ pdf: Buffer; res: Response }> {
  const res = await ts.a.fetch('/carrier-bind/print', body, { language: language as never });
  return { pdf: Buffer.from(await res.arrayBuffer()), res };
}

describe('<prefix>/print', () => {
  it('prints the header as the export shows it, the lines by group with the roll-up summed per group', async () => {
    const b = await bind();
    const { pdf, res } = await print({ id: b.id });
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain(`${b.bindNo}.pdf`);
    const text = pdfText(pdf).replace(/\s+/g, ' ');
    // header: the carrier by its serial (a reference's title), the status by its label, the total
    expect(text).toContain(b.sns[0]);
    expect(text).toContain(ts.server.t('en-US', 'enums.carrierBindStatus.new' as never) as string);
    expect(text).toContain('printed remark');
    // the lines: every carrier by serial; the groups' summary: G1 2+3 = 5, G2 7
    for (const sn of b.sns.slice(1)) expect(text).toContain(sn);
    expect(text).toMatch(/G1 5\b/);
    expect(text).toMatch(/G2 7\b/);
    expect(pages(pdf)).toBe(1);
  });

  it('prints one group or one page run per group; a group not on the document, another organisation and a bad id are refused', async () => {
    const b = await bind();
    const one = await print({ id: b.id, remark: 'G2' });
    expect(one.res.headers.get('content-disposition')).toContain(`${b.bindNo}-G2.pdf`);
    const text = pdfText(one.pdf);
    expect(text).toContain(b.sns[3]);
    expect(text).not.toContain(b.sns[1]);
    expect(pages((await print({ id: b.id, eachGroup: true })).pdf)).toBe(2);
    expect((await ts.a.call('/carrier-bind/print', { id: b.id, remark: 'NOPE' })).body.code).toBe(10002);
    const foreign = await ts.b.call('/carrier-bind/print', { id: b.id });
    expect(foreign.body.code).toBe(10002);
    expect(JSON.stringify(foreign.body)).not.toContain(b.bindNo);
    expect((await ts.a.call('/carrier-bind/print', { id: 'x' })).body.code).toBe(10001);
    expect((await ts.a.call('/carrier-bind/print', { id: b.id, eachGroup: 'yes' })).body.code).toBe(10001);
  });

  it('is worded in the caller language', async () => {
    const b = await bind();
    expect(pdfText((await print({ id: b.id }, 'zh-CN')).pdf)).toContain('打印时间');
    expect(pdfText((await print({ id: b.id }, 'ja-JP')).pdf)).toContain('印刷日時');
  });

  it('the loader refuses a print naming what the lines do not have', () => {
    const m = loadMetadata();
    m.resources['carrier-bind'].print = {
      title: 'fields.bindNo',
      fields: ['nope'],
      lines: { fields: ['qty', 'ghost'], perGroup: 'each', rollUps: ['remark'] },
    };
    const faults = checkMetadata(m, {}).map((f) => `${f.pointer} ${f.problem}`);
    expect(faults).toEqual(
      expect.arrayContaining([
        expect.stringContaining('/print/fields/0'),
        expect.stringContaining('/print/lines/fields/1'),
        expect.stringContaining('/print/lines/perGroup'),
        expect.stringContaining('/print/lines/rollUps/0'),
      ]),
    );
  });
});
