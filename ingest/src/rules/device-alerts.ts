/** Alert and log effects of one device (the warehouse is the gateway's or the carrier's). */
import { DEVICE_LOG, type AlertText } from '../state/effects';
import type { DeviceInfo } from '../state/fleet';
import type { RuleContext } from './context';

export function deviceWarehouse(ctx: RuleContext, d: DeviceInfo): number | null {
  if (d.warehouseId) return d.warehouseId;
  const c = ctx.fleet.carrierOf(d);
  if (!c) return null;
  return ctx.carrier(c).warehouseId;
}

export function openDeviceAlert(
  ctx: RuleContext,
  d: DeviceInfo,
  time: number,
  what: { reason?: number; code?: string },
  message: string,
  raw?: unknown,
  text?: AlertText,
): void {
  ctx.emit({ type: 'alert', orgId: d.orgId, kind: d.kind, subjectId: d.id, sn: d.sn, ...what, warehouseId: deviceWarehouse(ctx, d), message, text, time, raw });
  if (d.kind === 'beacon' || d.kind === 'gps') {
    ctx.emit({
      type: 'log',
      orgId: d.orgId,
      kind: d.kind,
      subjectId: d.id,
      event: DEVICE_LOG.abnormal,
      newValue: String(what.reason ?? what.code),
      carrierId: d.carrierId,
      time,
      remark: message,
      text,
    });
  }
}

export function closeDeviceAlert(ctx: RuleContext, d: DeviceInfo, time: number, what: { reason?: number; code?: string }): void {
  ctx.emit({ type: 'alert-cleared', orgId: d.orgId, kind: d.kind, subjectId: d.id, ...what, time });
}
