/**
 * The inspection report as PDF (pdfkit, pure JS): server, disks, database, gateways, beacon
 * battery bands and suggestions, with simple bar gauges. Built-in PDF fonts carry Latin
 * characters only (no CJK font ships with the server), so the report is worded in English
 * and free text (names, serials) outside Latin-1 is replaced by "?".
 */
import PDFDocument from 'pdfkit';
import type { Writable } from 'node:stream';
import type { Snapshot } from './snapshot';

const MB = 1024 * 1024;
export const fmtBytes = (n: number) => (n >= 1024 * MB ? `${(n / 1024 / MB).toFixed(1)} GB` : `${(n / MB).toFixed(1)} MB`);
const latin = (s: string) => s.replace(/[^\x20-\xff]/g, '?');

const SUGGESTION_TEXT: Record<string, (p: Record<string, string | number>) => string> = {
  'systemInspection.suggest.recharge': (p) => `${p.count} beacon(s) below 25 % battery: recharge or replace them (${p.sns}).`,
  'systemInspection.suggest.clearDisk': (p) => `Disk ${p.path} is ${p.usage} % full: clear space (old exports, telemetry retention).`,
};

export function writePdfReport(out: Writable, s: Snapshot, orgName: string): Promise<void> {
  const doc = new PDFDocument({ size: 'A4', margin: 48, info: { Title: 'System inspection report', Author: 'RTI Console' } });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
  });
  doc.pipe(out);

  const h = (t: string) =>
    doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).fillColor('#1f2a44').text(t).moveDown(0.3).font('Helvetica').fontSize(10).fillColor('#222');
  const line = (label: string, value: string) => doc.text(`${label}: `, { continued: true }).font('Helvetica-Bold').text(latin(value)).font('Helvetica');
  const gauge = (label: string, pct: number) => {
    const y = doc.y;
    const x = doc.page.margins.left;
    doc.text(label, x, y, { width: 140 });
    const w = 300;
    doc.rect(x + 150, y + 1, w, 9).fill('#e8e8e8');
    doc.rect(x + 150, y + 1, (w * Math.min(100, Math.max(0, pct))) / 100, 9).fill(pct >= 90 ? '#cf1322' : pct >= 75 ? '#fa8c16' : '#389e0d');
    doc.fillColor('#222').text(`${pct.toFixed(1)} %`, x + 460, y);
    doc.x = x;
    doc.moveDown(0.4);
  };

  doc.font('Helvetica-Bold').fontSize(18).fillColor('#1f2a44').text('System inspection report');
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor('#555')
    .text(`${latin(orgName)} - ${s.time.replace('T', ' ').slice(0, 19)} UTC`);

  h('Server');
  line('Host', `${s.host.hostname} (${s.host.platform}, Node ${s.host.node})`);
  line('CPU', `${s.host.cpus} x ${s.host.cpuModel}`);
  line('Uptime', `${(s.host.uptime / 3600).toFixed(1)} h`);
  gauge('CPU usage', s.latest.cpu);
  gauge('Memory usage', (100 * s.latest.memUsed) / s.latest.memTotal);
  line('Server process', `RSS ${fmtBytes(s.latest.processRss)}, heap ${fmtBytes(s.latest.heapUsed)}`);

  h('Disks');
  for (const d of s.disks) gauge(`${d.path} (${fmtBytes(d.free)} free of ${fmtBytes(d.total)})`.slice(0, 40), d.usage);

  h('Database');
  line('Engine', `${s.database.dialect}, ${s.database.tables} tables, ${fmtBytes(s.database.size)}`);
  line('Telemetry store', fmtBytes(s.database.telemetrySize));
  for (const r of s.database.resources.slice(0, 12)) doc.text(`${r.resource}: ${r.rows.toLocaleString('en-US')} rows`, { indent: 12 });

  h('Gateways');
  for (const [name, g] of [
    ['Slave gateways', s.gateways.slave],
    ['Master gateways', s.gateways.master],
  ] as const) {
    line(name, `${g.total} total, ${g.online} online, ${g.offline} offline, ${g.ineffective} ineffective, ${g.unknown} unknown`);
    if (g.total) gauge('Online rate', g.onlineRate);
    for (const o of g.offlineList.slice(0, 10))
      doc.text(
        `offline: ${latin(o.sn)} ${latin(o.name)} ${latin(o.warehouse ?? '')} last seen ${o.lastReportTime?.replace('T', ' ').slice(0, 16) ?? 'never'}`,
        { indent: 12 },
      );
  }

  h('Beacon battery');
  for (const b of s.battery.bands) doc.text(`${b.from}-${b.to} %: ${b.count}`, { indent: 12 });
  doc.text(`no level reported: ${s.battery.unknown}`, { indent: 12 });

  h('Suggestions');
  if (!s.suggestions.length) doc.text('Nothing to do.');
  for (const sg of s.suggestions) doc.text(`- ${latin(SUGGESTION_TEXT[sg.key]?.(sg.params) ?? sg.key)}`);

  doc.end();
  return done;
}
