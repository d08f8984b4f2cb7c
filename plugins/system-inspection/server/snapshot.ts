/** Everything the inspection page and its PDF report show, collected for one caller. */
import path from 'node:path';
import os from 'node:os';
import { Op } from 'sequelize';
import type { PluginServerContext, RequestContext } from '@rti/server/plugin-api';
import { batteryBands, type BatteryBands } from '@rti/common';
import { databaseSize, resourceCounts, type DatabaseSize, type ResourceCount } from './database';
import { directorySize, disksFor, type DiskInfo } from './disk';
import { gatewayReport, type GatewayKindReport } from './gateways';
import type { HostSample, HostSampler } from './host-sampler';
import { suggestions, type Suggestion } from './suggestions';

export const telemetryDir = (ctx: PluginServerContext) => path.join(ctx.config.dataDir, 'telemetry');

export function diskPaths(ctx: PluginServerContext): string[] {
  return [ctx.config.dataDir, path.parse(ctx.config.dataDir).root];
}

export async function lowBatterySns(ctx: PluginServerContext, call: RequestContext, limit = 10): Promise<string[]> {
  const rows = await ctx.repo('device-beacon', call).findAll({
    where: { battery: { [Op.lt]: 25 } },
    attributes: ['sn'],
    order: [
      ['battery', 'ASC'],
      ['id', 'ASC'],
    ],
    limit,
  });
  return rows.map((r) => String(r.get('sn')));
}

export async function suggestionsFor(ctx: PluginServerContext, call: RequestContext): Promise<Suggestion[]> {
  const [battery, disks, sns] = await Promise.all([batteryBands(ctx.repo('device-beacon', call)), disksFor(diskPaths(ctx)), lowBatterySns(ctx, call)]);
  return suggestions(battery, disks, sns);
}

export interface Snapshot {
  time: string;
  host: { hostname: string; platform: string; cpus: number; cpuModel: string; uptime: number; node: string };
  latest: HostSample;
  disks: DiskInfo[];
  database: DatabaseSize & { telemetrySize: number; resources: ResourceCount[] };
  gateways: { slave: GatewayKindReport; master: GatewayKindReport };
  battery: BatteryBands;
  suggestions: Suggestion[];
}

export async function snapshot(ctx: PluginServerContext, call: RequestContext, sampler: HostSampler): Promise<Snapshot> {
  const [disks, size, telemetrySize, resources, slave, master, battery, sns] = await Promise.all([
    disksFor(diskPaths(ctx)),
    databaseSize(ctx.db),
    directorySize(telemetryDir(ctx)),
    resourceCounts(ctx, call),
    gatewayReport(ctx, call, 'device-slave-gateway'),
    gatewayReport(ctx, call, 'device-master-gateway'),
    batteryBands(ctx.repo('device-beacon', call)),
    lowBatterySns(ctx, call),
  ]);
  const cpus = os.cpus();
  return {
    time: new Date().toISOString(),
    host: {
      hostname: os.hostname(),
      platform: `${os.type()} ${os.release()}`,
      cpus: cpus.length,
      cpuModel: cpus[0]?.model ?? '',
      uptime: Math.round(os.uptime()),
      node: process.version,
    },
    latest: sampler.latest(),
    disks,
    database: { ...size, telemetrySize, resources },
    gateways: { slave, master },
    battery,
    suggestions: suggestions(battery, disks, sns),
  };
}
