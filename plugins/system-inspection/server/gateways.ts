/**
 * Gateway connectivity from the device status the ingest service keeps (SPEC §4 device
 * status: unknown 0, online 10, offline 20, ineffective 30), per gateway kind, with the
 * offline gateways listed longest-silent first.
 */
import type { PluginServerContext, RequestContext } from '@rti/server/plugin-api';

export const DEVICE_STATUS = { unknown: 0, online: 10, offline: 20, ineffective: 30 } as const;
const OFFLINE_LISTED = 50;

export interface GatewayKindReport {
  total: number;
  online: number;
  offline: number;
  ineffective: number;
  unknown: number;
  /** online share 0–100 (0 with no gateways) */
  onlineRate: number;
  offlineList: Array<{ id: number; sn: string; name: string; warehouse: string | null; lastReportTime: string | null }>;
}

export async function gatewayReport(ctx: PluginServerContext, call: RequestContext, resource: string): Promise<GatewayKindReport> {
  const repo = ctx.repo(resource, call);
  const count = (status: number) => repo.count({ status });
  const [total, online, offline, ineffective] = await Promise.all([
    repo.count(),
    count(DEVICE_STATUS.online),
    count(DEVICE_STATUS.offline),
    count(DEVICE_STATUS.ineffective),
  ]);
  const rows = await repo.serialize(
    await repo.findAll({
      where: { status: DEVICE_STATUS.offline },
      order: [
        ['lastReportTime', 'ASC'],
        ['id', 'ASC'],
      ],
      limit: OFFLINE_LISTED,
    }),
  );
  return {
    total,
    online,
    offline,
    ineffective,
    unknown: total - online - offline - ineffective,
    onlineRate: total ? Math.round((1000 * online) / total) / 10 : 0,
    offlineList: rows.map((r) => ({
      id: Number(r.id),
      sn: String(r.sn ?? ''),
      name: String(r.name ?? ''),
      warehouse: (r.warehouseIdLabel as string | undefined) ?? null,
      lastReportTime: (r.lastReportTime as string | null) ?? null,
    })),
  };
}
