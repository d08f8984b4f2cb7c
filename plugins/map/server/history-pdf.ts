/**
 * The history report as a real PDF (pdfkit, vector): the track as a polyline over the offline
 * Natural Earth outline fitted to the track's bounding box (start, end, stops and events
 * marked, scale bar), a summary table, the stops and events, and the temperature, humidity,
 * shock and pressure series as line charts. Words in the caller's language with the Noto CJK
 * font (@rti/server/pdf: fonts-noto-cjk; PDF_FONT or MAP_PDF_FONT overrides the path); without that font the report falls
 * back to Helvetica with English words, and characters outside Latin-1 print as "?".
 */
import { cjkFontAvailable, openPdf, pdfTable } from '@rti/server/pdf';
import type { Writable } from 'node:stream';
import type { Language, PluginServerContext } from '@rti/server/plugin-api';
import { haversine } from '@rti/common';
import type { HistoryAnswer } from './history';
import { outline, type Ring } from './outline';
import { reportLabels, type ReportLabels } from './report-labels';

export interface ReportSubject {
  carrierSn: string | null;
  carrierName: string | null;
  carrierCode: string | null;
  gpsSn: string | null;
  beaconMac: string | null;
}

export interface ReportOptions {
  language: Language;
  /** the server's translator (the labels are the plugin's server/messages) */
  t: PluginServerContext['t'];
  /** caller's offset from UTC in minutes (east positive), for printed times */
  utcOffset: number;
  subject: ReportSubject;
}

const C = {
  water: '#d6e6f2',
  land: '#f4f2ec',
  border: '#b9b4a8',
  track: '#1677ff',
  beacon: '#722ed1',
  start: '#52c41a',
  end: '#cf1322',
  stop: '#faad14',
  event: '#ff4d4f',
  ink: '#1f2a44',
  text: '#262626',
  muted: '#8c8c8c',
  rule: '#d9d9d9',
  grid: '#f0f0f0',
};
const SERIES = [
  { key: 'temp', label: 'temperature', color: '#f5222d' },
  { key: 'hum', label: 'humidity', color: '#1677ff' },
  { key: 'shock', label: 'shock', color: '#722ed1' },
  { key: 'pres', label: 'pressure', color: '#13a8a8' },
] as const;

const pad2 = (n: number) => String(Math.abs(Math.trunc(n))).padStart(2, '0');
const zone = (min: number) => `UTC${min < 0 ? '-' : '+'}${pad2(min / 60)}:${pad2(min % 60)}`;
const durationText = (ms: number) => {
  const m = Math.round(ms / 60_000);
  return m >= 1440 ? `${Math.floor(m / 1440)} d ${Math.floor((m % 1440) / 60)} h` : m >= 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m} min`;
};

/** nice tick step for a range */
function step(range: number, count: number): number {
  const raw = range / Math.max(1, count);
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((k) => k * p).find((s) => s >= raw) ?? 10 * p;
}

export function writeHistoryPdf(out: Writable, h: HistoryAnswer, opts: ReportOptions): Promise<void> {
  // without the CJK font only English can be drawn
  const L: ReportLabels = reportLabels(opts.t, cjkFontAvailable() ? opts.language : 'en-US');
  const s = opts.subject;
  const subjectName = s.carrierSn ?? s.gpsSn ?? s.beaconMac ?? '-';
  const { doc, txt, done } = openPdf(out, { language: opts.language, title: `${L.title} ${subjectName}` });
  const when = (t: number) => new Date(t + opts.utcOffset * 60_000).toISOString().slice(0, 16).replace('T', ' ');

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const tr = h.track;
  const n = tr.t.length;

  // header
  doc.fontSize(17).fillColor(C.ink).text(L.title, left, 40);
  doc
    .fontSize(9)
    .fillColor(C.muted)
    .text(`${txt(subjectName)} · ${when(Date.parse(h.from))} – ${when(Date.parse(h.to))} (${zone(opts.utcOffset)}) · ${L.generated} ${when(Date.now())}`);
  doc.moveDown(0.6);

  // map
  const mapTop = doc.y;
  const mapH = 330;
  drawMap(doc, h, left, mapTop, width, mapH, L, txt);
  doc.y = mapTop + mapH + 8;

  // summary: label/value pairs, two pairs a row
  let dist = 0;
  let maxSpeed: number | null = null;
  for (let i = 1; i < n; i++) dist += haversine(tr.lng[i - 1], tr.lat[i - 1], tr.lng[i], tr.lat[i]);
  for (const v of tr.speed) if (v !== null && (maxSpeed === null || v > maxSpeed)) maxSpeed = v;
  const pairs: Array<[string, string]> = [
    [L.carrier, txt(s.carrierSn)],
    [L.carrierCode, txt(s.carrierCode)],
    [L.carrierName, txt(s.carrierName)],
    [L.gps, txt(s.gpsSn)],
    [L.beacon, txt(s.beaconMac)],
    [L.points, h.total.toLocaleString('en-US')],
    [L.from, n ? when(tr.t[0]) : '-'],
    [L.to, n ? when(tr.t[n - 1]) : '-'],
    [L.distance, `${(dist / 1000).toFixed(1)} km`],
    [L.duration, n > 1 ? durationText(tr.t[n - 1] - tr.t[0]) : '-'],
    [L.maxSpeed, maxSpeed === null ? '-' : `${maxSpeed.toFixed(0)} km/h`],
    [L.stops, `${h.stops.length} · ${L.events} ${h.events.length}`],
  ];
  heading(doc, L.summary);
  pdfTable(
    doc,
    [0.18, 0.32, 0.18, 0.32],
    Array.from({ length: Math.ceil(pairs.length / 2) }, (_, r) => [...pairs[2 * r], ...(pairs[2 * r + 1] ?? ['', ''])]),
    { labelCols: [0, 2] },
  );

  // stops and events
  const MAX_ROWS = 12;
  if (h.stops.length) {
    heading(doc, L.stops);
    pdfTable(
      doc,
      [0.06, 0.26, 0.26, 0.16, 0.26],
      [
        ['#', L.start, L.end, L.durationCol, L.position],
        ...h.stops
          .slice(0, MAX_ROWS)
          .map((st, i) => [String(i + 1), when(st.start), when(st.end), durationText(st.end - st.start), `${st.lng.toFixed(5)}, ${st.lat.toFixed(5)}`]),
      ],
      { header: true },
    );
    if (h.stops.length > MAX_ROWS)
      doc
        .fontSize(8)
        .fillColor(C.muted)
        .text(L.more.replace('{n}', String(h.stops.length - MAX_ROWS)), left);
  }
  if (h.events.length) {
    heading(doc, L.events);
    pdfTable(
      doc,
      [0.3, 0.2, 0.2, 0.3],
      [
        [L.time, L.code, L.value, L.position],
        ...h.events
          .slice(0, MAX_ROWS)
          .map((e) => [when(e.t), txt(e.code), txt(e.value), e.lng === null || e.lat === null ? '-' : `${e.lng.toFixed(5)}, ${e.lat.toFixed(5)}`]),
      ],
      { header: true },
    );
    if (h.events.length > MAX_ROWS)
      doc
        .fontSize(8)
        .fillColor(C.muted)
        .text(L.more.replace('{n}', String(h.events.length - MAX_ROWS)), left);
  }

  // sensor charts on their own page
  doc.addPage();
  doc.fontSize(14).fillColor(C.ink).text(L.sensors, left, 40);
  const chartH = 150;
  let y = doc.y + 6;
  for (const sr of SERIES) {
    lineChart(doc, h.sensors.t, h.sensors[sr.key], { x: left, y, w: width, h: chartH, title: L[sr.label], color: sr.color, L, when });
    y += chartH + 36;
  }

  doc.end();
  return done;

  function heading(d: PDFKit.PDFDocument, t: string) {
    if (d.y > d.page.height - 120) d.addPage();
    d.moveDown(0.5).fontSize(11).fillColor(C.ink).text(t, left);
    d.moveDown(0.2);
  }
}

type Project = (lng: number, lat: number) => [number, number];

function drawMap(
  doc: PDFKit.PDFDocument,
  h: HistoryAnswer,
  x0: number,
  y0: number,
  w: number,
  hgt: number,
  L: ReportLabels,
  txt: (v: unknown) => string,
): void {
  const tr = h.track;
  const lngs = [...tr.lng, ...h.stops.map((s) => s.lng), ...h.events.flatMap((e) => (e.lng === null ? [] : [e.lng]))];
  const lats = [...tr.lat, ...h.stops.map((s) => s.lat), ...h.events.flatMap((e) => (e.lat === null ? [] : [e.lat]))];
  // Web Mercator in radians; the view is the track's box, padded, at least ~2 km across
  const X = (lng: number) => (lng * Math.PI) / 180;
  const Y = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (Math.max(-85, Math.min(85, lat)) * Math.PI) / 360));
  let [xa, xb, ya, yb] = lngs.length
    ? [Math.min(...lngs.map(X)), Math.max(...lngs.map(X)), Math.min(...lats.map(Y)), Math.max(...lats.map(Y))]
    : [X(121.47), X(121.47), Y(31.23), Y(31.23)];
  const minSpan = 0.0004;
  const grow = (a: number, b: number) => {
    const span = Math.max(b - a, minSpan) * 1.12;
    const mid = (a + b) / 2;
    return [mid - span / 2, mid + span / 2];
  };
  [xa, xb] = grow(xa, xb);
  [ya, yb] = grow(ya, yb);
  const scale = Math.min(w / (xb - xa), hgt / (yb - ya));
  const cx = (xa + xb) / 2;
  const cy = (ya + yb) / 2;
  const project: Project = (lng, lat) => [x0 + w / 2 + (X(lng) - cx) * scale, y0 + hgt / 2 - (Y(lat) - cy) * scale];
  // view box in degrees, for culling land polygons
  const lngOf = (px: number) => (((px - x0 - w / 2) / scale + cx) * 180) / Math.PI;
  const latOf = (py: number) => (Math.atan(Math.sinh(-(py - y0 - hgt / 2) / scale + cy)) * 180) / Math.PI;
  const view = [lngOf(x0), latOf(y0 + hgt), lngOf(x0 + w), latOf(y0)];

  doc.save();
  doc.rect(x0, y0, w, hgt).clip();
  doc.rect(x0, y0, w, hgt).fill(C.water);
  const ring = (r: Ring) => {
    r.forEach(([lng, lat], i) => {
      const [px, py] = project(lng, lat);
      if (i === 0) doc.moveTo(px, py);
      else doc.lineTo(px, py);
    });
    doc.closePath();
  };
  const base = outline();
  for (const poly of base.land) {
    const [w0, s0, e0, n0] = poly.box;
    if (e0 < view[0] || w0 > view[2] || n0 < view[1] || s0 > view[3]) continue;
    poly.rings.forEach(ring);
    doc.fill(C.land, 'even-odd');
  }
  for (const line of base.borders) {
    if (!line.some(([lng, lat]) => lng >= view[0] - 5 && lng <= view[2] + 5 && lat >= view[1] - 5 && lat <= view[3] + 5)) continue;
    line.forEach(([lng, lat], i) => {
      const [px, py] = project(lng, lat);
      if (i === 0) doc.moveTo(px, py);
      else doc.lineTo(px, py);
    });
    doc.lineWidth(0.6).strokeColor(C.border).stroke();
  }

  // the track: GPS legs solid, beacon sightings (mix) dashed between warehouses
  for (let i = 1; i < tr.t.length; i++) {
    const [ax, ay] = project(tr.lng[i - 1], tr.lat[i - 1]);
    const [bx, by] = project(tr.lng[i], tr.lat[i]);
    const beacon = tr.src[i] === 2 || tr.src[i - 1] === 2;
    doc
      .moveTo(ax, ay)
      .lineTo(bx, by)
      .lineWidth(beacon ? 1.5 : 2.2)
      .lineCap('round')
      .lineJoin('round');
    if (beacon) doc.dash(4, { space: 3 });
    doc.strokeColor(beacon ? C.beacon : C.track).stroke();
    if (beacon) doc.undash();
  }
  h.stops.forEach((s, i) => {
    const [px, py] = project(s.lng, s.lat);
    doc.circle(px, py, 6.5).lineWidth(1.2).fillAndStroke(C.stop, '#ffffff');
    doc
      .fontSize(6.5)
      .fillColor('#ffffff')
      .text(String(i + 1), px - 6.5, py - 3.4, { width: 13, align: 'center', lineBreak: false });
  });
  for (const e of h.events) {
    if (e.lng === null || e.lat === null) continue;
    const [px, py] = project(e.lng, e.lat);
    doc.polygon([px, py - 5], [px + 5, py], [px, py + 5], [px - 5, py]).fill(C.event);
  }
  if (tr.t.length) {
    const [sx, sy] = project(tr.lng[0], tr.lat[0]);
    const [ex, ey] = project(tr.lng[tr.t.length - 1], tr.lat[tr.t.length - 1]);
    doc.circle(sx, sy, 5).lineWidth(1.5).fillAndStroke(C.start, '#ffffff');
    doc.circle(ex, ey, 5).lineWidth(1.5).fillAndStroke(C.end, '#ffffff');
  }

  // scale bar: metres per point at the view's centre latitude
  const midLat = (view[1] + view[3]) / 2;
  const mPerPt = (6371008.8 * Math.cos((midLat * Math.PI) / 180)) / scale;
  const meters = step(mPerPt * w * 0.2, 1);
  const barW = meters / mPerPt;
  const bx = x0 + 10;
  const by = y0 + hgt - 14;
  doc
    .rect(bx - 4, by - 12, barW + 8, 20)
    .fillOpacity(0.85)
    .fill('#ffffff')
    .fillOpacity(1);
  doc
    .moveTo(bx, by)
    .lineTo(bx + barW, by)
    .lineWidth(2)
    .strokeColor(C.text)
    .stroke();
  doc
    .fontSize(7)
    .fillColor(C.text)
    .text(meters >= 1000 ? `${meters / 1000} km` : `${meters} m`, bx, by - 10, { width: barW, align: 'center', lineBreak: false });

  // legend
  const items: Array<[string, string]> = [
    [L.start, C.start],
    [L.end, C.end],
    [L.stop, C.stop],
    [L.event, C.event],
  ];
  let lx = x0 + w - 8 - items.length * 62;
  doc
    .rect(lx - 6, y0 + 6, items.length * 62 + 6, 16)
    .fillOpacity(0.85)
    .fill('#ffffff')
    .fillOpacity(1);
  for (const [label, color] of items) {
    doc.circle(lx + 4, y0 + 14, 3.5).fill(color);
    doc
      .fontSize(7)
      .fillColor(C.text)
      .text(txt(label), lx + 11, y0 + 10.5, { width: 48, lineBreak: false, ellipsis: true });
    lx += 62;
  }
  doc.restore();
  doc.rect(x0, y0, w, hgt).lineWidth(0.5).strokeColor(C.rule).stroke();
}

function lineChart(
  doc: PDFKit.PDFDocument,
  t: number[],
  v: (number | null)[],
  o: { x: number; y: number; w: number; h: number; title: string; color: string; L: ReportLabels; when: (t: number) => string },
): void {
  const vals = v.filter((x): x is number => x !== null && Number.isFinite(x));
  const stats = vals.length ? { min: Math.min(...vals), max: Math.max(...vals), avg: vals.reduce((a, b) => a + b, 0) / vals.length } : null;
  doc.fontSize(9.5).fillColor(C.ink).text(o.title, o.x, o.y, { continued: !!stats });
  if (stats)
    doc
      .fontSize(8)
      .fillColor(C.muted)
      .text(`   ${o.L.min} ${stats.min.toFixed(2)} · ${o.L.max} ${stats.max.toFixed(2)} · ${o.L.avg} ${stats.avg.toFixed(2)}`);
  const top = o.y + 16;
  const px = o.x + 40;
  const pw = o.w - 48;
  const ph = o.h - 34;
  doc.rect(px, top, pw, ph).lineWidth(0.5).strokeColor(C.rule).stroke();
  if (!stats || t.length < 1) {
    doc
      .fontSize(9)
      .fillColor(C.muted)
      .text(o.L.noData, px, top + ph / 2 - 5, { width: pw, align: 'center' });
    return;
  }
  let lo = stats.min;
  let hi = stats.max;
  if (hi - lo < 1e-9) {
    lo -= 1;
    hi += 1;
  }
  const st = step(hi - lo, 4);
  lo = Math.floor(lo / st) * st;
  hi = Math.ceil(hi / st) * st;
  const t0 = t[0];
  const t1 = Math.max(t[t.length - 1], t0 + 1);
  const X = (time: number) => px + ((time - t0) / (t1 - t0)) * pw;
  const Y = (val: number) => top + ph - ((val - lo) / (hi - lo)) * ph;
  const digits = st >= 1 ? 0 : st >= 0.1 ? 1 : 2;
  for (let g = lo; g <= hi + st / 2; g += st) {
    doc
      .moveTo(px, Y(g))
      .lineTo(px + pw, Y(g))
      .lineWidth(0.4)
      .strokeColor(C.grid)
      .stroke();
    doc
      .fontSize(7)
      .fillColor(C.muted)
      .text(g.toFixed(digits), o.x, Y(g) - 3.5, { width: 36, align: 'right', lineBreak: false });
  }
  for (let k = 0; k <= 4; k++) {
    const time = t0 + ((t1 - t0) * k) / 4;
    doc
      .fontSize(7)
      .fillColor(C.muted)
      .text(o.when(time).slice(5), X(time) - 30, top + ph + 4, { width: 60, align: k === 0 ? 'left' : k === 4 ? 'right' : 'center', lineBreak: false });
  }
  // the series, broken where a value is missing
  let open = false;
  for (let i = 0; i < t.length; i++) {
    const val = v[i];
    if (val === null || !Number.isFinite(val)) {
      open = false;
      continue;
    }
    if (open) doc.lineTo(X(t[i]), Y(val));
    else doc.moveTo(X(t[i]), Y(val));
    open = true;
  }
  doc.lineWidth(1.2).lineJoin('round').strokeColor(o.color).stroke();
}
