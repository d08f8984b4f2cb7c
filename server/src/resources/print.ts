/**
 * A document's printed form (metadata `print`, see PrintDef): `<prefix>/print { id,
 * <groupBy>?, <perGroup>? }` streams a PDF — the header's fields, the QR code of its public
 * page (when the resource declares `publicLink`), a per-group summary of the lines' roll-ups,
 * the lines, signature lines. The whole document, one group (a container), or one page run per
 * group. Read through the caller's scoped repositories (10002 for a record out of scope, as
 * `base`), worded in the caller's language, times in the organisation's zone.
 */
import { fieldLabelKey, resourceApiPrefix, resourceLabelKey, type ChildrenDef, type FieldDef, type Metadata, type ResourceDef } from '@rti/metadata';
import { ApiError, ErrorCode } from '../http/api-error';
import { cellValue } from './export';
import type { ScopedRepository } from './repository';
import type { Row } from './serialize';
import type { PublicLinkService } from './public-links';
import { PDF_COLORS, drawQr, openPdf, pdfTable } from '../pdf/pdf';
import { STREAMED, type CallDef, type RequestContext } from '../http/types';
import type { TFunction } from '../i18n/translator';

/** lines printed at most per document (5,000 lines are about 110 pages) */
export const PRINT_MAX_LINES = 10_000;

export interface PrintDeps {
  metadata: Metadata;
  t: TFunction;
  repo: (resource: string, ctx: RequestContext) => ScopedRepository;
  zoneOf: (orgId: number | null) => Promise<string>;
  links: PublicLinkService;
}

const fileSafe = (s: unknown) => String(s ?? '').replace(/[^\w.-]+/g, '_');

/** `<prefix>/print` of every resource declaring `print`. */
export function printCalls(deps: PrintDeps): CallDef[] {
  const out: CallDef[] = [];
  for (const res of Object.values(deps.metadata.resources)) {
    if (!res.print) continue;
    const { lines } = res.print;
    const child = (lines.resource ? res.children?.find((c) => c.resource === lines.resource) : res.children?.[0]) as ChildrenDef;
    out.push({
      path: `${resourceApiPrefix(res)}/print`,
      resource: res.name,
      input: {
        id: { type: 'ref', required: true },
        ...(lines.groupBy ? { [lines.groupBy]: { type: 'string', maxLength: 200 } } : {}),
        ...(lines.perGroup ? { [lines.perGroup]: { type: 'bool', default: false } } : {}),
      },
      async handler({ input: given, ctx: call, req, res: http }) {
        const input = given ?? {};
        const id = input.id as number;
        const group = lines.groupBy ? (input[lines.groupBy] as string | undefined) : undefined;
        const headers = deps.repo(res.name, call);
        const [header] = await headers.serialize([await headers.find(id)]);
        const rows: Row[] = [];
        const where = { [child.foreignKey]: id, ...(group !== undefined ? { [lines.groupBy!]: group } : {}) };
        for await (const chunk of deps.repo(child.resource, call).chunks(where, 1000)) {
          // the list filter may match loosely (a text contains); a group is its exact value
          rows.push(...(group === undefined ? chunk : chunk.filter((r) => String(r[lines.groupBy!] ?? '') === group)));
          if (rows.length > PRINT_MAX_LINES) throw new ApiError(ErrorCode.validation, 'server.print.tooMany', { max: PRINT_MAX_LINES });
        }
        if (group !== undefined && !rows.length) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
        if (lines.groupBy) rows.sort((a, b) => String(a[lines.groupBy!] ?? '').localeCompare(String(b[lines.groupBy!] ?? '')) || Number(a.id) - Number(b.id));
        const url = res.publicLink ? deps.links.url(req, (await deps.links.tokenFor(res.name, call, id)).path) : '';
        const title = header[res.titleField];
        http.status(200);
        http.setHeader('Content-Type', 'application/pdf');
        http.setHeader('Content-Disposition', `attachment; filename="${fileSafe(title)}${group !== undefined ? `-${fileSafe(group)}` : ''}.pdf"`);
        const perGroup = lines.perGroup ? input[lines.perGroup] === true && group === undefined : false;
        await writePdf(http, { deps, res, child, header, rows, url, group, perGroup, call, zone: await deps.zoneOf(call.orgId) });
        return STREAMED;
      },
    });
  }
  return out;
}

interface PrintJob {
  deps: PrintDeps;
  res: ResourceDef;
  child: ChildrenDef;
  header: Row;
  rows: Row[];
  url: string;
  group: string | undefined;
  perGroup: boolean;
  call: RequestContext;
  zone: string;
}

function writePdf(out: NodeJS.WritableStream, j: PrintJob): Promise<void> {
  const { deps, res, child, header, rows } = j;
  const print = res.print!;
  const { lines } = print;
  const lineRes = deps.metadata.resources[child.resource];
  const t = (k: string, p?: Record<string, unknown>) => deps.t(j.call.language, k, p as never);
  const value = (f: FieldDef | undefined, row: Row) => (f ? cellValue(f, row, deps.metadata, t, j.zone) : null);
  const shown = (v: unknown) => (v === null || v === undefined || v === '' ? '-' : String(v));
  const fieldOf = (def: ResourceDef, name: string) => def.fields.find((f) => f.name === name);
  const label = (def: ResourceDef, name: string) => t(fieldLabelKey(fieldOf(def, name) ?? { name }));

  const { doc, txt, done } = openPdf(out as never, { language: j.call.language, title: `${t(print.title)} ${shown(header[res.titleField])}` });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const groupName = (k: string) => (k ? k : t('server.print.noGroup'));
  const groups = new Map<string, Row[]>();
  if (lines.groupBy) for (const r of rows) groups.set(String(r[lines.groupBy] ?? ''), [...(groups.get(String(r[lines.groupBy] ?? '')) ?? []), r]);
  const sections: Array<{ group: string | null; rows: Row[] }> = j.perGroup
    ? [...groups.entries()].map(([k, rs]) => ({ group: k, rows: rs }))
    : [{ group: j.group ?? null, rows }];
  if (!sections.length) sections.push({ group: null, rows: [] });
  // a roll-up per group: its `where` (resolved enum values) over the group's lines
  const rollUps = (lines.rollUps ?? []).map((name) => child.rollUps!.find((r) => r.field === name)!);
  const rolled = (rs: Row[], i: number) => {
    const r = rollUps[i];
    const hit = rs.filter((l) => Object.entries(r.where ?? {}).every(([f, vs]) => (vs as unknown[]).some((v) => String(v) === String(l[f]))));
    return r.kind === 'count' ? hit.length : hit.reduce((s, l) => s + (Number(l[r.of!]) || 0), 0);
  };

  sections.forEach((s, i) => {
    if (i > 0) doc.addPage();
    heading(s.group);
    if (s.group === null && lines.groupBy && groups.size) {
      doc.moveDown(0.5).fontSize(11).fillColor(PDF_COLORS.ink).text(label(lineRes, lines.groupBy), left);
      doc.moveDown(0.2);
      const widths = [0.5, ...rollUps.map(() => 0.5 / Math.max(1, rollUps.length))];
      pdfTable(
        doc,
        rollUps.length ? widths : [1],
        [
          [label(lineRes, lines.groupBy), ...rollUps.map((r) => label(res, r.field))],
          ...[...groups.entries()].map(([k, rs]) => [txt(groupName(k)), ...rollUps.map((_, n) => String(rolled(rs, n)))]),
        ],
        { header: true },
      );
    }
    doc
      .moveDown(0.5)
      .fontSize(11)
      .fillColor(PDF_COLORS.ink)
      .text(`${t(lines.title ?? resourceLabelKey(lineRes))} (${s.rows.length})`, left);
    doc.moveDown(0.2);
    const cols = lines.fields.map((n) => fieldOf(lineRes, n));
    pdfTable(
      doc,
      [0.06, ...cols.map(() => 0.94 / cols.length)],
      [['#', ...lines.fields.map((n) => label(lineRes, n))], ...s.rows.map((l, n) => [String(n + 1), ...cols.map((f) => txt(shown(value(f, l))))])],
      { header: true },
    );
    signatures();
  });
  doc.end();
  return done;

  function heading(group: string | null) {
    const qr = j.url ? 110 : 0;
    const top = doc.page.margins.top;
    const textWidth = width - qr - (qr ? 10 : 0);
    doc.fontSize(17).fillColor(PDF_COLORS.ink).text(t(print.title), left, top, { width: textWidth });
    const name = txt(shown(header[res.titleField]));
    doc
      .fontSize(12)
      .text(group === null || !lines.groupBy ? name : `${name} · ${label(lineRes, lines.groupBy)} ${txt(groupName(group))}`, { width: textWidth });
    doc
      .fontSize(8)
      .fillColor(PDF_COLORS.muted)
      .text(
        `${t('server.print.printed')} ${shown(cellValue({ name: 'at', type: 'datetime' } as FieldDef, { at: new Date().toISOString() }, deps.metadata, t, j.zone))}`,
        {
          width: textWidth,
        },
      );
    if (j.url) {
      drawQr(doc, j.url, left + width - qr, top, qr);
      doc
        .fontSize(7)
        .fillColor(PDF_COLORS.muted)
        .text(t(print.scanHint ?? 'server.print.scan'), left + width - qr, top + qr + 2, { width: qr, align: 'center' });
    }
    doc.x = left;
    doc.y = Math.max(doc.y, top + qr + 24);
    const long = (n: string) => fieldOf(res, n)?.type === 'text';
    const pairs = print.fields.filter((n) => !long(n)).map((n) => [label(res, n), txt(shown(value(fieldOf(res, n), header)))]);
    if (pairs.length % 2) pairs.push(['', '']);
    pdfTable(
      doc,
      [0.18, 0.32, 0.18, 0.32],
      Array.from({ length: pairs.length / 2 }, (_, r) => [...pairs[2 * r], ...pairs[2 * r + 1]]),
      { labelCols: [0, 2] },
    );
    // a long text runs under the pairs rather than squeezed into a cell
    for (const n of print.fields.filter((x) => long(x) && header[x]))
      doc
        .moveDown(0.3)
        .fontSize(8.5)
        .fillColor(PDF_COLORS.text)
        .text(`${label(res, n)}: ${txt(String(header[n]))}`, left, doc.y, { width });
  }

  function signatures() {
    const keys = print.signatures ?? [];
    if (!keys.length) return;
    if (doc.y > doc.page.height - doc.page.margins.bottom - 60) doc.addPage();
    doc.moveDown(1.5);
    const y = doc.y + 20;
    const each = width / keys.length;
    keys.forEach((key, i) => {
      doc
        .moveTo(left + i * each, y)
        .lineTo(left + i * each + each - 20, y)
        .lineWidth(0.5)
        .strokeColor(PDF_COLORS.muted)
        .stroke();
      doc
        .fontSize(8)
        .fillColor(PDF_COLORS.muted)
        .text(t(key), left + i * each, y + 3, { width: each - 20 });
    });
    doc.x = left;
  }
}
