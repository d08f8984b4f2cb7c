/**
 * System inspection (SPEC §7 /system-inspection/…): server CPU, memory and disks (sampled in
 * process), database size and row counts, the telemetry store's size, gateway connectivity,
 * beacon battery bands, suggestions, a PDF report and the system log export. Every figure
 * about business rows goes through the caller's scoped repository.
 */
import os from 'node:os';
import { definePlugin, STREAMED, type PluginServerContext } from '@rti/server/plugin-api';
import { batteryBands } from '@rti/common';
import { databaseSize, resourceCounts } from './database';
import { directorySize, disksFor } from './disk';
import { gatewayReport } from './gateways';
import { HostSampler } from './host-sampler';
import { defineLogExport } from './log-export';
import { writePdfReport } from './pdf-report';
import { diskPaths, snapshot, suggestionsFor, telemetryDir } from './snapshot';

const P = '/system-inspection';
/** sampling interval of CPU and memory; 120 samples = the last hour */
const SAMPLE_MS = Number(process.env.INSPECTION_SAMPLE_MS) || 30_000;

export function installInspection(ctx: PluginServerContext, sampler: HostSampler): void {
  ctx.jobs.every('host-sample', SAMPLE_MS, () => void sampler.sample());

  ctx.addCall({ path: `${P}/beacon-battery/list`, handler: ({ ctx: call }) => batteryBands(ctx.repo('device-beacon', call)) });

  ctx.addCall({
    path: `${P}/database/list`,
    async handler({ ctx: call }) {
      const [size, telemetrySize, resources] = await Promise.all([databaseSize(ctx.db), directorySize(telemetryDir(ctx)), resourceCounts(ctx, call)]);
      return { ...size, telemetrySize, resources: resources.map((r) => ({ ...r, label: ctx.t(call.language, r.label) })) };
    },
  });

  // bar chart: the ten largest resources of the organisation
  ctx.addCall({
    path: `${P}/database-echarts/list`,
    async handler({ ctx: call }) {
      const top = (await resourceCounts(ctx, call)).slice(0, 10);
      return { categories: top.map((r) => ctx.t(call.language, r.label)), resources: top.map((r) => r.resource), values: top.map((r) => r.rows) };
    },
  });

  // pie chart: what fills the data disk
  ctx.addCall({
    path: `${P}/occupancy-echarts/list`,
    async handler() {
      const [disk] = await disksFor([ctx.config.dataDir]);
      const [size, telemetry] = await Promise.all([databaseSize(ctx.db), directorySize(telemetryDir(ctx))]);
      if (!disk) return { total: 0, parts: [] };
      const other = Math.max(0, disk.used - size.size - telemetry);
      return {
        total: disk.total,
        usage: disk.usage,
        parts: [
          { name: 'database', value: size.size },
          { name: 'telemetry', value: telemetry },
          { name: 'other', value: other },
          { name: 'free', value: disk.free },
        ],
      };
    },
  });

  ctx.addCall({ path: `${P}/suggest/list`, handler: ({ ctx: call }) => suggestionsFor(ctx, call) });
  ctx.addCall({ path: `${P}/system-disk/list`, handler: () => disksFor(diskPaths(ctx)) });

  ctx.addCall({
    path: `${P}/system-disk/occupancy-echarts/cpu/list`,
    handler() {
      const cpus = os.cpus();
      return {
        cores: cpus.length,
        model: cpus[0]?.model ?? '',
        samples: sampler.history().map((s) => ({ time: s.time, cpu: s.cpu, processCpu: s.processCpu, load1: s.load1 })),
      };
    },
  });

  ctx.addCall({
    path: `${P}/mem/list`,
    handler() {
      const l = sampler.latest();
      return {
        total: l.memTotal,
        used: l.memUsed,
        usage: Math.round((1000 * l.memUsed) / l.memTotal) / 10,
        processRss: l.processRss,
        heapUsed: l.heapUsed,
        samples: sampler.history().map((s) => ({ time: s.time, used: s.memUsed, processRss: s.processRss })),
      };
    },
  });

  ctx.addCall({
    path: `${P}/gateway-inspection`,
    async handler({ ctx: call }) {
      const [slave, master] = await Promise.all([gatewayReport(ctx, call, 'device-slave-gateway'), gatewayReport(ctx, call, 'device-master-gateway')]);
      return { slave, master };
    },
  });

  // the admin and operation logs as xlsx: a report definition (range checked before the first byte)
  defineLogExport(ctx, `${P}/system-log/export`);

  // the whole inspection as a PDF report (SPEC §2 "PDF export")
  ctx.addCall({
    path: `${P}/report/export`,
    async handler({ ctx: call, res }) {
      const snap = await snapshot(ctx, call, sampler);
      const org = call.orgId
        ? ((await ctx.repo('organization', call).findAll({ where: { id: call.orgId }, attributes: ['name'] }))[0]?.get('name') as string | undefined)
        : undefined;
      res.status(200);
      res.setHeader('Content-Type', 'application/pdf');
      res.setHeader('Content-Disposition', `attachment; filename="system-inspection-${snap.time.slice(0, 10)}.pdf"`);
      await writePdfReport(res, snap, org ?? '');
      return STREAMED;
    },
  });
}

export default definePlugin({
  id: 'system-inspection',
  ownTables: "the database's size and table statistics for the platform's inspection report (no resource rows)",
  server(ctx) {
    const sampler = new HostSampler();
    installInspection(ctx, sampler);
    // a first sample soon after start (a CPU share needs two readings some time apart)
    setTimeout(() => sampler.sample(), 2000).unref();
  },
});
