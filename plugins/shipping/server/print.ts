/**
 * Delivery note / packing manifest as PDF (`/ship-order/print`): the order's facts, a QR code
 * of the public page (the platform's public link, `/info/ship-order?token=…`) that a driver or receiver scans, the
 * containers and the carriers — for the whole order, for one container (`containerNo`), or one
 * manifest page per container (`perContainer`). Drawn with the shared PDF primitives
 * (@rti/server/pdf: the caller's language with the CJK font, Latin-only fallback).
 */
import { Enums } from '@rti/metadata';
import { ApiError, ErrorCode, STREAMED, type Language, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { PDF_COLORS, drawQr, openPdf, pdfTable } from '@rti/server/pdf';
import type { Writable } from 'node:stream';

type Row = Record<string, any>;
/** carriers printed at most per document (a 5,000-carrier order is about 110 pages) */
const MAX_LINES = 10_000;
const ARRIVED = [Enums.shipOrderLineStatus.received, Enums.shipOrderLineStatus.extra];

interface PrintOptions {
  language: Language;
  t: (key: string, params?: Record<string, unknown>) => string;
  url: string;
  /** minutes east of UTC for printed times */
  utcOffset: number;
  /** one manifest page (or run of pages) per container */
  perContainer: boolean;
  containerNo?: string;
}

const enumLabel = (t: PrintOptions['t'], name: string, value: unknown) => {
  const key = Object.entries((Enums as unknown as Record<string, Record<string, number>>)[name] ?? {}).find(([, v]) => v === Number(value))?.[0];
  return key ? t(`enums.${name}.${key}`) : value === null || value === undefined ? '-' : String(value);
};

export function writeDeliveryNote(out: Writable, order: Row, lines: Row[], o: PrintOptions): Promise<void> {
  const P = 'shipping.print';
  const { doc, txt, done } = openPdf(out, { language: o.language, title: `${o.t(`${P}.title`)} ${order.orderNo}` });
  const when = (v: unknown) => (v ? new Date(new Date(v as string).getTime() + o.utcOffset * 60_000).toISOString().slice(0, 16).replace('T', ' ') : '-');
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  const groups = new Map<string, Row[]>();
  for (const l of lines) {
    const k = String(l.containerNo ?? '');
    groups.set(k, [...(groups.get(k) ?? []), l]);
  }
  const containerName = (k: string) => (k ? k : o.t(`${P}.noContainer`));
  const sections: Array<{ container: string | null; rows: Row[] }> = o.perContainer
    ? [...groups.entries()].map(([k, rows]) => ({ container: k, rows }))
    : [{ container: o.containerNo ?? null, rows: lines }];
  if (!sections.length) sections.push({ container: null, rows: [] });

  sections.forEach((s, i) => {
    if (i > 0) doc.addPage();
    header(s.container);
    if (s.container === null) {
      // the whole order: what each container holds
      doc
        .moveDown(0.5)
        .fontSize(11)
        .fillColor(PDF_COLORS.ink)
        .text(o.t(`${P}.containers`), left);
      doc.moveDown(0.2);
      pdfTable(
        doc,
        [0.5, 0.25, 0.25],
        [
          [o.t('fields.containerNo'), o.t(`${P}.quantity`), o.t(`${P}.received`)],
          ...[...groups.entries()].map(([k, rows]) => [
            txt(containerName(k)),
            String(rows.filter((r) => Number(r.status) !== Enums.shipOrderLineStatus.extra).length),
            String(rows.filter((r) => (ARRIVED as number[]).includes(Number(r.status))).length),
          ]),
        ],
        { header: true },
      );
    }
    doc
      .moveDown(0.5)
      .fontSize(11)
      .fillColor(PDF_COLORS.ink)
      .text(`${o.t(`${P}.carriers`)} (${s.rows.length})`, left);
    doc.moveDown(0.2);
    pdfTable(
      doc,
      [0.06, 0.24, 0.2, 0.18, 0.16, 0.16],
      [
        ['#', o.t('fields.carrierSn'), o.t('fields.carrierCode'), o.t('fields.containerNo'), o.t('fields.deliveryNo'), o.t('fields.status')],
        ...s.rows.map((l, n) => [
          String(n + 1),
          txt(l.carrierSn),
          txt(l.carrierCodeIdLabel),
          txt(l.containerNo),
          txt(l.deliveryNo),
          txt(enumLabel(o.t, 'shipOrderLineStatus', l.status)),
        ]),
      ],
      { header: true },
    );
    signatures();
  });
  doc.end();
  return done;

  function header(container: string | null) {
    const qrSize = 110;
    const top = doc.page.margins.top;
    doc
      .fontSize(17)
      .fillColor(PDF_COLORS.ink)
      .text(o.t(`${P}.title`), left, top, { width: width - qrSize - 10 });
    doc.fontSize(12).text(container === null ? txt(order.orderNo) : `${txt(order.orderNo)} · ${o.t('fields.containerNo')} ${txt(containerName(container))}`, {
      width: width - qrSize - 10,
    });
    doc
      .fontSize(8)
      .fillColor(PDF_COLORS.muted)
      .text(`${o.t(`${P}.printed`)} ${when(new Date().toISOString())}`, { width: width - qrSize - 10 });
    if (o.url) {
      drawQr(doc, o.url, left + width - qrSize, top, qrSize);
      doc
        .fontSize(7)
        .fillColor(PDF_COLORS.muted)
        .text(o.t(`${P}.scan`), left + width - qrSize, top + qrSize + 2, { width: qrSize, align: 'center' });
    }
    doc.x = left;
    doc.y = Math.max(doc.y, top + qrSize + 24);
    const pairs: Array<[string, string]> = [
      [o.t('fields.status'), txt(enumLabel(o.t, 'shipOrderStatus', order.status))],
      [o.t('fields.type'), txt(enumLabel(o.t, 'shipOrderType', order.type))],
      [o.t('fields.shipperWarehouse'), txt(order.shipperWarehouseIdLabel)],
      [o.t('fields.receiverWarehouse'), txt(order.receiverWarehouseIdLabel)],
      [o.t('fields.transportType'), txt(enumLabel(o.t, 'transportType', order.transportType))],
      [o.t('fields.conveyanceNo'), txt(order.conveyanceNo)],
      [o.t('fields.etd'), when(order.etd)],
      [o.t('fields.eta'), when(order.eta)],
      [o.t('fields.atd'), when(order.atd)],
      [o.t('fields.tor'), when(order.tor)],
      [o.t('fields.totalAmount'), String(order.totalAmount ?? 0)],
      [o.t('fields.receivedAmount'), String(order.receivedAmount ?? 0)],
    ];
    pdfTable(
      doc,
      [0.18, 0.32, 0.18, 0.32],
      Array.from({ length: pairs.length / 2 }, (_, r) => [...pairs[2 * r], ...pairs[2 * r + 1]]),
      { labelCols: [0, 2] },
    );
    if (order.remark)
      doc
        .moveDown(0.3)
        .fontSize(8.5)
        .fillColor(PDF_COLORS.text)
        .text(`${o.t('fields.remark')}: ${txt(order.remark)}`, left, doc.y, { width });
  }

  function signatures() {
    if (doc.y > doc.page.height - doc.page.margins.bottom - 60) doc.addPage();
    doc.moveDown(1.5);
    const y = doc.y + 20;
    const half = width / 2;
    for (const [i, key] of ['shipperSign', 'receiverSign'].entries()) {
      doc
        .moveTo(left + i * half, y)
        .lineTo(left + i * half + half - 20, y)
        .lineWidth(0.5)
        .strokeColor(PDF_COLORS.muted)
        .stroke();
      doc
        .fontSize(8)
        .fillColor(PDF_COLORS.muted)
        .text(o.t(`${P}.${key}`), left + i * half, y + 3, { width: half - 20 });
    }
    doc.x = left;
  }
}

export function registerPrint(ctx: PluginServerContext): void {
  /** { id, containerNo?, perContainer?, utcOffset? } → application/pdf */
  ctx.addCall({
    path: '/ship-order/print',
    input: {
      id: { type: 'ref', required: true },
      containerNo: { type: 'string', maxLength: 50 },
      perContainer: { type: 'bool', default: false },
      // minutes east of UTC for the printed times
      utcOffset: { type: 'int', min: -840, max: 840, default: 0 },
    },
    async handler({ input, ctx: call, req, res }) {
      const { id, containerNo, utcOffset } = input;
      const { order, lines } = await readOrder(ctx, call, id, containerNo);
      const link = await ctx.publicLinks.tokenFor('ship-order', call, id);
      res.status(200);
      res.setHeader('Content-Type', 'application/pdf');
      const name = `${String(order.orderNo).replace(/[^\w.-]+/g, '_')}${containerNo ? `-${String(containerNo).replace(/[^\w.-]+/g, '_')}` : ''}.pdf`;
      res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
      await writeDeliveryNote(res, order, lines, {
        language: call.language,
        t: (k, p) => ctx.t(call.language, k, p as never),
        url: ctx.publicLinks.url(req, link.path),
        utcOffset,
        perContainer: input.perContainer && containerNo === undefined,
        containerNo,
      });
      return STREAMED;
    },
  });
}

async function readOrder(ctx: PluginServerContext, call: RequestContext, id: number, containerNo?: string): Promise<{ order: Row; lines: Row[] }> {
  const orders = ctx.repo('ship-order', call);
  const [order] = await orders.serialize([await orders.find(id)]);
  const lines: Row[] = [];
  for await (const chunk of ctx.repo('ship-order-detail', call).chunks({ shipOrderId: id, ...(containerNo ? { containerNo } : {}) }, 1000)) {
    for (const l of chunk) if (!containerNo || l.containerNo === containerNo) lines.push(l);
    if (lines.length > MAX_LINES) throw new ApiError(ErrorCode.validation, 'shipping.print.tooMany', { max: MAX_LINES });
  }
  if (containerNo && !lines.length) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
  lines.sort((a, b) => String(a.containerNo ?? '').localeCompare(String(b.containerNo ?? '')) || Number(a.id) - Number(b.id));
  return { order, lines };
}
