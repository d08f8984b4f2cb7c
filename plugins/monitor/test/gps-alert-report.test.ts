/**
 * The GPS alert report (a report definition): thresholds over each alert's reading, the list
 * call's paging, the export read back, bad parameters refused in the caller's language, and
 * rows of the caller's organisation only.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { matchesSettings } from '../server/gps-alert-report';

describe('GPS alert settings', () => {
  const none = { battery: null, envTemperature: null, envHumidity: null, accSpeed: null };
  it('matches any breached setting, or everything when none is set', () => {
    const f = { battery: 15, temperature: 30, humidity: 50, acceleration: 0.5 };
    expect(matchesSettings(f, none)).toBe(true);
    expect(matchesSettings(f, { ...none, battery: 20 })).toBe(true);
    expect(matchesSettings(f, { ...none, battery: 10 })).toBe(false);
    expect(matchesSettings(f, { ...none, battery: 10, envTemperature: 30 })).toBe(true);
    expect(matchesSettings({ ...f, humidity: null }, { ...none, envHumidity: 40 })).toBe(false);
    expect(matchesSettings(f, { ...none, accSpeed: 0.5 })).toBe(true);
  });
});

describe('the report over a server', () => {
  let ts: TestServer;
  const now = Date.now();

  beforeAll(async () => {
    ts = await startTestServer({ plugins: ['monitor'] });
    const alerts = ts.server.db.models['device-gps-alert'];
    for (let i = 0; i < 5; i++)
      await alerts.create({
        orgId: ts.orgA,
        gpsSn: `G-${i}`,
        code: '048',
        reportTime: new Date(now - (i + 1) * 60_000),
        status: 0,
        message: `battery ${i * 10}%`,
        rawData: { battery: i * 10, temperature1: 20, temperature2: 31 + i },
      });
    await alerts.create({ orgId: ts.orgA, gpsSn: 'G-OLD', code: '048', reportTime: new Date(now - 3 * 86_400_000), status: 0, rawData: { battery: 1 } });
    await alerts.create({ orgId: ts.orgA, gpsSn: 'G-SOLVED', code: '048', reportTime: new Date(now - 60_000), status: 10, rawData: { battery: 1 } });
    await alerts.create({ orgId: ts.orgB, gpsSn: 'G-B', code: '048', reportTime: new Date(now - 60_000), status: 0, rawData: { battery: 1 } });
  }, 60_000);
  afterAll(() => ts?.close());

  it('pages the unsolved alerts of the range that breach a threshold, newest first', async () => {
    const all = await ts.a.call('/device-alert/gps/report/list', {});
    expect(all.body.code, all.body.message).toBe(0);
    // default range: the last day; solved and older alerts are out
    expect(all.body.data.list.map((r: any) => r.gpsSn)).toEqual(['G-0', 'G-1', 'G-2', 'G-3', 'G-4']);
    const low = await ts.a.call('/device-alert/gps/report/list', { battery: 20, page: 2, limit: 2 });
    expect(low.body.data).toMatchObject({ total: 3, list: [{ gpsSn: 'G-2', battery: 20, temperature: 33 }] });
    const week = await ts.a.call('/device-alert/gps/report/list', { time: [now - 7 * 86_400_000, now], battery: 5 });
    expect(week.body.data.list.map((r: any) => r.gpsSn)).toEqual(['G-0', 'G-OLD']);
    expect((await ts.b.call('/device-alert/gps/report/list', { battery: 100 })).body.data.list.map((r: any) => r.gpsSn)).toEqual(['G-B']);
  });

  it('exports the same rows with translated headers and units', async () => {
    const res = await ts.a.fetch('/device-alert/gps/report/export', { envTemperature: 34 }, { language: 'zh-CN' });
    expect(res.headers.get('content-disposition')).toMatch(/filename="gps-alerts-\d{4}-\d{2}-\d{2}\.xlsx"/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const rows: unknown[][] = [];
    wb.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    expect(wb.worksheets[0].name).toBe('GPS 告警报表');
    expect(rows[0]).toEqual(['GPS编号', '告警代码', '上报时间', '仓库', '信息', '电量（%）', '温度（°C）', '湿度（%）', '加速度（G）']);
    expect(rows.slice(1).map((r) => [r[0], r[6]])).toEqual([
      ['G-3', 34],
      ['G-4', 35],
    ]);
  });

  it('refuses bad parameters before any byte, in the caller language', async () => {
    const res = await ts.a.fetch('/device-alert/gps/report/export', { battery: 101 }, { language: 'ja-JP' });
    expect(res.headers.get('content-type')).toContain('json');
    expect(((await res.json()) as { code: number }).code).toBe(10001);
    const long = await ts.a.call('/device-alert/gps/report/list', { time: [now - 100 * 86_400_000, now] });
    expect(long.body).toMatchObject({ code: 10001, message: 'Time: a range of at most 93 days' });
    const reversed = await ts.a.call('/device-alert/gps/report/list', { time: [now, now - 1000] }, { language: 'zh-CN' });
    expect(reversed.body.message).toBe('开始时间必须早于结束时间');
  });
});
