/** The five alert resources (metadata/resources/monitor) and how a rule effect maps onto them. */
import type { AlertKind } from '@rti/ingest/state/effects';

export interface AlertResource {
  kind: AlertKind;
  /** notification-feed category */
  category: string;
  resource: string;
  /** SPEC §7 API prefix */
  api: string;
  idField: string;
  snField: string;
  timeField: string;
}

export const ALERT_RESOURCES: AlertResource[] = [
  {
    kind: 'carrier',
    category: 'carrier',
    resource: 'carrier-alert',
    api: '/carrier-alert',
    idField: 'carrierId',
    snField: 'carrierSn',
    timeField: 'createdTime',
  },
  {
    kind: 'beacon',
    category: 'beacon',
    resource: 'device-beacon-alert',
    api: '/device-alert/beacon',
    idField: 'beaconId',
    snField: 'beaconSn',
    timeField: 'createdTime',
  },
  { kind: 'gps', category: 'gps', resource: 'device-gps-alert', api: '/device-alert/gps', idField: 'gpsId', snField: 'gpsSn', timeField: 'reportTime' },
  {
    kind: 'slave-gateway',
    category: 'slaveGateway',
    resource: 'device-slave-gateway-alert',
    api: '/device-alert/slave-gateway',
    idField: 'slaveGatewayId',
    snField: 'slaveGatewaySn',
    timeField: 'createdTime',
  },
  {
    kind: 'master-gateway',
    category: 'masterGateway',
    resource: 'device-master-gateway-alert',
    api: '/device-alert/master-gateway',
    idField: 'masterGatewayId',
    snField: 'masterGatewaySn',
    timeField: 'createdTime',
  },
];

export const alertResource = (kind: AlertKind): AlertResource => ALERT_RESOURCES.find((a) => a.kind === kind)!;

/** SPEC §4 alert status */
export const ALERT_STATUS = { unhandled: 0, handled: 10 } as const;
/** SPEC §9 notification menu: items per category */
export const UNSOLVED_PER_CATEGORY = 15;
