/**
 * The five alert categories of the notification menu (SPEC §2, §3) and where each one's
 * fields, screens and process call are. Keys match the telemetry plugin's
 * /device-alert/unsolved answer.
 */
import { apiCode, AlertStatusEnum } from '@rti/metadata/browser';

export interface AlertKind {
  category: 'carrier' | 'beacon' | 'gps' | 'slaveGateway' | 'masterGateway';
  resource: string;
  route: string;
  /** SPEC §7 API prefix */
  api: string;
  snField: string;
  timeField: string;
  reasonField: string;
  /** enum of the reason field (GPS alerts carry a tracker code instead) */
  reasonEnum?: string;
  title: string;
}

export const ALERT_KINDS: AlertKind[] = [
  {
    category: 'carrier',
    resource: 'carrier-alert',
    route: '/monitor/carrier-alert',
    api: '/carrier-alert',
    snField: 'carrierSn',
    timeField: 'createdTime',
    reasonField: 'reason',
    reasonEnum: 'carrierAlertReason',
    title: 'monitor.category.carrier',
  },
  {
    category: 'beacon',
    resource: 'device-beacon-alert',
    route: '/monitor/device-beacon-alert',
    api: '/device-alert/beacon',
    snField: 'beaconSn',
    timeField: 'createdTime',
    reasonField: 'reason',
    reasonEnum: 'beaconAlertReason',
    title: 'monitor.category.beacon',
  },
  {
    category: 'gps',
    resource: 'device-gps-alert',
    route: '/monitor/device-gps-alert',
    api: '/device-alert/gps',
    snField: 'gpsSn',
    timeField: 'reportTime',
    reasonField: 'code',
    title: 'monitor.category.gps',
  },
  {
    category: 'slaveGateway',
    resource: 'device-slave-gateway-alert',
    route: '/monitor/device-slave-gateway-alert',
    api: '/device-alert/slave-gateway',
    snField: 'slaveGatewaySn',
    timeField: 'createdTime',
    reasonField: 'reason',
    reasonEnum: 'gatewayAlertReason',
    title: 'monitor.category.slaveGateway',
  },
  {
    category: 'masterGateway',
    resource: 'device-master-gateway-alert',
    route: '/monitor/device-master-gateway-alert',
    api: '/device-alert/master-gateway',
    snField: 'masterGatewaySn',
    timeField: 'createdTime',
    reasonField: 'reason',
    reasonEnum: 'gatewayAlertReason',
    title: 'monitor.category.masterGateway',
  },
];

export const kindOfResource = (resource: string) => ALERT_KINDS.find((k) => k.resource === resource);
export const processCode = (k: AlertKind) => apiCode(`${k.api}/process`);
export const FEED_PATH = '/device-alert/unsolved';
export const FEED_CODE = apiCode(FEED_PATH);
/** SPEC §4 alert status */
export const UNSOLVED = AlertStatusEnum.unsolved;
/** SPEC §9: notification menu items per category */
export const PER_CATEGORY = 15;

export type AlertRow = Record<string, unknown> & { id: number };
export interface CategoryFeed {
  list: AlertRow[];
  total: number;
}
/** the /device-alert/unsolved answer: per category the newest unsolved rows and their total */
export type FeedState = Partial<Record<AlertKind['category'], CategoryFeed>>;

/** total unsolved over the categories (the badge) */
export function unsolvedTotal(state: FeedState): number {
  return ALERT_KINDS.reduce((n, k) => n + (state[k.category]?.total ?? 0), 0);
}
