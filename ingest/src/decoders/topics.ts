/**
 * Topic layout (docs/TELEMETRY.md):
 *   rti/<orgCode>/gw/<gatewayMac>/scan       beacon scan batch
 *   rti/<orgCode>/gw/<gatewayMac>/heartbeat  gateway heartbeat
 *   rti/<orgCode>/gw/<gatewayMac>/state      connection state (last will)
 *   rti/<orgCode>/gps/<sn>/report            GPS tracker report
 */
import { WRONG, mac } from './fields';
import { isGpsSn } from './gps-report';

export const TOPIC_ROOT = 'rti';
export type TopicKind = 'scan' | 'heartbeat' | 'state' | 'report';

export interface TopicInfo {
  orgCode: string;
  kind: TopicKind;
  /** canonical gateway mac or gps sn */
  device: string;
  deviceType: 'gw' | 'gps';
}

const ORG_CODE = /^[A-Za-z0-9_-]{1,64}$/;

export function parseTopic(topic: string): TopicInfo | null {
  const parts = topic.split('/');
  if (parts.length !== 5 || parts[0] !== TOPIC_ROOT || !ORG_CODE.test(parts[1])) return null;
  const [, orgCode, type, id, kind] = parts;
  if (type === 'gw' && (kind === 'scan' || kind === 'heartbeat' || kind === 'state')) {
    const m = mac(id);
    return m === WRONG ? null : { orgCode, kind, device: m, deviceType: 'gw' };
  }
  if (type === 'gps' && kind === 'report' && isGpsSn(id)) return { orgCode, kind, device: id, deviceType: 'gps' };
  return null;
}

/** Subscription filters an ingest worker needs (one per kind). */
export const INGEST_FILTERS = [`${TOPIC_ROOT}/+/gw/+/scan`, `${TOPIC_ROOT}/+/gw/+/heartbeat`, `${TOPIC_ROOT}/+/gw/+/state`, `${TOPIC_ROOT}/+/gps/+/report`];
