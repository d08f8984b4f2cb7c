/**
 * Online/offline by the device model's offlineCheckTime, and "transmitter data missing" after
 * more than 60 minutes of silence (beacon alert reason 70, GPS code 084). A reading brings a
 * device online and clears its silence alert; the ticker takes it offline.
 */
import { BEACON_REASON, DEVICE_LOG, DEVICE_STATUS, GPS_CODE, GATEWAY_REASON } from '../state/effects';
import type { DeviceInfo } from '../state/fleet';
import { clear, raise, type DeviceState } from '../state/subject-state';
import { DATA_MISSING_MS, DEFAULT_OFFLINE_MIN, MINUTE, type RuleContext } from './context';
import { closeDeviceAlert, openDeviceAlert } from './device-alerts';

export function seen(ctx: RuleContext, d: DeviceInfo, s: DeviceState, time: number): void {
  if (time > s.lastSeen) s.lastSeen = time;
  if (s.status !== DEVICE_STATUS.online) {
    statusChange(ctx, d, s, DEVICE_STATUS.online, time);
    if (d.kind === 'slave-gateway' || d.kind === 'master-gateway') gatewayBack(ctx, d, s, time);
  }
  if (clear(s, 'missing')) {
    if (d.kind === 'beacon') closeDeviceAlert(ctx, d, time, { reason: BEACON_REASON.clientOffline });
    if (d.kind === 'gps') closeDeviceAlert(ctx, d, time, { code: GPS_CODE.dataMissing });
  }
}

export function presenceTick(ctx: RuleContext, d: DeviceInfo, s: DeviceState, now: number): void {
  if (s.lastSeen === 0) return;
  const silent = now - s.lastSeen;
  const offlineMin = ctx.fleet.model(d)?.offlineCheckTime || DEFAULT_OFFLINE_MIN;
  if (s.status === DEVICE_STATUS.online && silent > offlineMin * MINUTE) {
    statusChange(ctx, d, s, DEVICE_STATUS.offline, now);
    if ((d.kind === 'slave-gateway' || d.kind === 'master-gateway') && raise(s, 'disconnected', now)) {
      const minutes = Math.round(silent / MINUTE);
      openDeviceAlert(ctx, d, now, { reason: GATEWAY_REASON.offline }, `no heartbeat for ${minutes} min`, undefined, {
        id: 'noHeartbeat',
        params: { minutes },
      });
    }
  }
  if ((d.kind === 'beacon' || d.kind === 'gps') && silent > DATA_MISSING_MS && raise(s, 'missing', now)) {
    const minutes = Math.round(silent / MINUTE);
    const what = `no data for ${minutes} min (last ${new Date(s.lastSeen).toISOString()})`;
    // the last reading's time is the device's last report time: the translated text leaves it out
    const text = { id: 'noData', params: { minutes } };
    if (d.kind === 'beacon') openDeviceAlert(ctx, d, now, { reason: BEACON_REASON.clientOffline }, what, undefined, text);
    else openDeviceAlert(ctx, d, now, { code: GPS_CODE.dataMissing }, what, undefined, text);
  }
}

export function statusChange(ctx: RuleContext, d: DeviceInfo, s: DeviceState, status: number, time: number): void {
  const old = s.status;
  s.status = status;
  if (d.kind === 'beacon' || d.kind === 'gps') {
    ctx.emit({
      type: 'log',
      orgId: d.orgId,
      kind: d.kind,
      subjectId: d.id,
      event: DEVICE_LOG.statusChange,
      oldValue: String(old),
      newValue: String(status),
      carrierId: d.carrierId,
      time,
    });
  }
  ctx.touchDevice(d, s);
}

/** A gateway that was reported disconnected talks again: close that alert, record the reconnection. */
export function gatewayBack(ctx: RuleContext, d: DeviceInfo, s: DeviceState, time: number): void {
  s.connection = 10;
  if (clear(s, 'disconnected')) {
    closeDeviceAlert(ctx, d, time, { reason: GATEWAY_REASON.offline });
    openDeviceAlert(ctx, d, time, { reason: GATEWAY_REASON.connection }, 'gateway reconnected', undefined, { id: 'gatewayReconnected' });
    // a reconnection is a single event: it is over as soon as it is recorded
    closeDeviceAlert(ctx, d, time, { reason: GATEWAY_REASON.connection });
  }
}
