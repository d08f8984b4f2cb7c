/**
 * Topic layout (docs/TELEMETRY.md):
 *   rti/<orgCode>/gw/<gatewayMac>/scan       beacon scan batch
 *   rti/<orgCode>/gw/<gatewayMac>/heartbeat  gateway heartbeat
 *   rti/<orgCode>/gw/<gatewayMac>/state      connection state (last will)
 *   rti/<orgCode>/gps/<sn>/report            GPS tracker report
 *   rti/<orgCode>/gps/<sn>/config            configuration sent to a tracker (downlink, server → device)
 *   rti/<orgCode>/gps/<sn>/config/ack        the tracker's answer to it (through its master gateway or bridge)
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

/** Downlink: the configuration the server sends to one tracker. */
export const gpsConfigTopic = (orgCode: string, sn: string): string => `${TOPIC_ROOT}/${orgCode}/gps/${sn}/config`;
/** What the server listens to for trackers' answers (external broker). */
export const GPS_CONFIG_ACK_FILTER = `${TOPIC_ROOT}/+/gps/+/config/ack`;

/** `rti/<orgCode>/gps/<sn>/config/ack` → its organisation code and tracker, else null. */
export function parseConfigAck(topic: string): { orgCode: string; sn: string } | null {
  const parts = topic.split('/');
  if (parts.length !== 6 || parts[0] !== TOPIC_ROOT || !ORG_CODE.test(parts[1]) || parts[2] !== 'gps' || parts[4] !== 'config' || parts[5] !== 'ack')
    return null;
  return isGpsSn(parts[3]) ? { orgCode: parts[1], sn: parts[3] } : null;
}

/** A tracker's configuration topic of one organisation (`+` for every tracker): what a master gateway may subscribe to. */
export function isGpsConfigSubscription(topic: string, orgCode: string): boolean {
  const parts = topic.split('/');
  return (
    parts.length === 5 &&
    parts[0] === TOPIC_ROOT &&
    parts[1] === orgCode &&
    parts[2] === 'gps' &&
    (parts[3] === '+' || isGpsSn(parts[3])) &&
    parts[4] === 'config'
  );
}
