/** Notification menu logic: SSE framing, item wording, badge total, process permission codes. */
import { describe, expect, it } from 'vitest';
import { parseSse, type StreamEvent } from '@rti/console/live-stream';
import { alertItem, reasonText } from '../console/alert-items';
import { ALERT_KINDS, FEED_CODE, PER_CATEGORY, processCode, unsolvedTotal } from '../console/alert-kinds';

const enums = { carrierAlertReason: [{ value: 20, label: 'enums.carrierAlertReason.transportTimeout' }] };
const t = (k: string) => ({ 'enums.carrierAlertReason.transportTimeout': 'Transport timeout', 'monitor.code': 'Code' })[k] ?? k;
const kind = (c: string) => ALERT_KINDS.find((k) => k.category === c)!;

describe('SSE framing', () => {
  it('parses complete events, keeps the partial tail, skips comments', () => {
    const got: StreamEvent[] = [];
    const rest = parseSse(
      'retry: 3000\nevent: ready\ndata: {"orgId":1}\n\n: ping\n\nid: 1\nevent: alert\ndata: {"category":"beacon"}\n\nevent: alert-processed\ndata: {"id"',
      (e) => got.push(e),
    );
    expect(got).toEqual([
      { type: 'ready', data: { orgId: 1 } },
      { type: 'alert', data: { category: 'beacon' } },
    ]);
    expect(rest).toBe('event: alert-processed\ndata: {"id"');
    parseSse(rest + ':7}\n\n', (e) => got.push(e));
    expect(got.at(-1)).toEqual({ type: 'alert-processed', data: { id: 7 } });
  });
  it('joins multi-line data and accepts CRLF', () => {
    const got: StreamEvent[] = [];
    parseSse('data: a\r\ndata: b\r\n\r\n', (e) => got.push(e));
    expect(got).toEqual([{ type: 'message', data: 'a\nb' }]);
  });
});

describe('notification items', () => {
  it('device serial, reason label and created time, linking to the detail', () => {
    const it = alertItem(kind('carrier'), { id: 5, carrierSn: 'C-1', reason: 20, createdTime: '2026-01-02T03:04:05.000Z', message: 'late' }, enums, t);
    expect(it).toMatchObject({ key: 'carrier:5', title: 'C-1', description: 'Transport timeout — late', path: '/monitor/carrier-alert/detail/5' });
    expect(it.time).toMatch(/^2026-01-0[12] \d\d:04:05$/);
  });
  it('GPS alerts show their code and report time', () => {
    const gps = kind('gps');
    expect(reasonText(gps, { id: 1, code: '018' }, enums, t)).toBe('Code 018');
    expect(alertItem(gps, { id: 1, gpsSn: 'GT-1', code: 'T_HIGH', reportTime: '2026-01-02T03:04:05.000Z' }, enums, t)).toMatchObject({
      title: 'GT-1',
      description: 'Code T_HIGH',
    });
  });
  it('unknown enum values fall back to the raw value', () => {
    expect(reasonText(kind('carrier'), { id: 1, reason: 99 }, enums, t)).toBe('99');
  });
});

describe('badge and codes', () => {
  it('badge counts every unsolved alert, not only the 15 listed per category', () => {
    expect(PER_CATEGORY).toBe(15);
    expect(unsolvedTotal({ carrier: { list: [], total: 16 }, gps: { list: [], total: 3 } })).toBe(19);
    expect(unsolvedTotal({})).toBe(0);
  });
  it('five categories with the SPEC process calls and permission codes', () => {
    expect(ALERT_KINDS.map((k) => k.category)).toEqual(['carrier', 'beacon', 'gps', 'slaveGateway', 'masterGateway']);
    expect(ALERT_KINDS.map(processCode)).toEqual([
      'ApiCarrierAlertProcess',
      'ApiDeviceAlertBeaconProcess',
      'ApiDeviceAlertGpsProcess',
      'ApiDeviceAlertSlaveGatewayProcess',
      'ApiDeviceAlertMasterGatewayProcess',
    ]);
    expect(FEED_CODE).toBe('ApiDeviceAlertUnsolved');
  });
});
