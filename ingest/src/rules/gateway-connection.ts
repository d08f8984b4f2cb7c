/**
 * Gateway connection state from the heartbeat/state topics (SPEC §4 connection 10/20): a
 * disconnection opens gateway alert reason 20 once; the next connection or heartbeat closes
 * it and records reason 10 (reconnected). Silence beyond offlineCheckTime is handled by the
 * presence ticker.
 */
import { GATEWAY_REASON } from '../state/effects';
import type { DeviceInfo } from '../state/fleet';
import { raise, type DeviceState } from '../state/subject-state';
import type { RuleContext } from './context';
import { openDeviceAlert } from './device-alerts';
import { gatewayBack, seen, statusChange } from './device-presence';

export function gatewayRow(ctx: RuleContext, d: DeviceInfo, s: DeviceState, connection: number, time: number): void {
  if (connection === 20) {
    if (time > s.lastSeen) s.lastSeen = time;
    s.connection = 20;
    if (s.status !== 20) statusChange(ctx, d, s, 20, time);
    if (raise(s, 'disconnected', time))
      openDeviceAlert(ctx, d, time, { reason: GATEWAY_REASON.offline }, 'gateway disconnected', undefined, { id: 'gatewayDisconnected' });
    ctx.touchDevice(d, s);
    return;
  }
  seen(ctx, d, s, time);
  if (s.open.disconnected !== undefined) gatewayBack(ctx, d, s, time);
  s.connection = 10;
}
