/**
 * Dashboards (SPEC §7 /dashboard…): the figures behind /dashboard-home and the big-screen
 * /dashboard. Every query runs through the caller's scoped repository (organisation and
 * warehouse restriction), aggregated in the database.
 */
import { Op } from 'sequelize';
import { definePlugin, type PluginServerContext } from '@rti/server/plugin-api';
import { batteryBands } from '@rti/common';
import { Enums } from '@rti/metadata';
import { alertMessages, UNSOLVED } from './alerts';
import { dashboardSummary, inStock } from './summary';
import { countBy } from './group-count';

/** SPEC §4 carrier alert reason "transport timeout" */
const TRANSPORT_TIMEOUT = Enums.carrierAlertReason.transportTimeout;

/** how many of the newest rows a panel shows (declared: docs/PLUGINS.md "Declared call inputs") */
const PANEL_LIMIT = { type: 'int', min: 1, max: 100, default: 20 } as const;

export function installDashboard(ctx: PluginServerContext): void {
  ctx.addCall({ path: '/dashboard', handler: ({ ctx: call }) => dashboardSummary(ctx, call) });

  ctx.addCall({ path: '/dashboard/beacon-battery', handler: ({ ctx: call }) => batteryBands(ctx.repo('device-beacon', call)) });

  ctx.addCall({
    path: '/dashboard/message',
    input: { limit: PANEL_LIMIT, unsolved: { type: 'bool', default: true } },
    handler: ({ input, ctx: call }) => alertMessages(ctx, call, input.limit, input.unsolved),
  });

  ctx.addCall({
    path: '/dashboard/transport-timeout',
    input: { limit: PANEL_LIMIT },
    async handler({ input, ctx: call }) {
      const repo = ctx.repo('carrier-alert', call);
      const where = { reason: TRANSPORT_TIMEOUT, status: UNSOLVED };
      const [total, rows] = await Promise.all([
        repo.count(where),
        repo.findAll({
          where,
          order: [
            ['createdTime', 'DESC'],
            ['id', 'DESC'],
          ],
          limit: input.limit,
        }),
      ]);
      const list = (await repo.serialize(rows)).map((r) => ({
        id: r.id,
        carrierSn: r.carrierSn,
        warehouse: r.warehouseIdLabel ?? null,
        message: r.message ?? null,
        createdTime: r.createdTime,
        hours: Math.floor((Date.now() - new Date(r.createdTime as string).getTime()) / 3_600_000),
      }));
      return { total, list };
    },
  });

  // warehouses with a position (their location) and their stock, for the map panel
  ctx.addCall({
    path: '/dashboard/map',
    async handler({ ctx: call }) {
      const stock = await countBy(ctx.repo('carrier', call), 'warehouseId', inStock(ctx));
      const transit = await ctx.repo('carrier', call).count({ transportStatus: 20 });
      const whRepo = ctx.repo('warehouse', call);
      const warehouses = (await whRepo.findAll({
        attributes: ['id', 'name', 'locationId', 'color', 'visibleInMap'],
        limit: 500,
        order: [['id', 'ASC']],
        raw: true,
      })) as unknown as Array<Record<string, unknown>>;
      const locIds = [...new Set(warehouses.map((w) => w.locationId).filter((v) => v !== null && v !== undefined))] as number[];
      const locs = locIds.length
        ? ((await ctx
            .repo('location', call)
            .findAll({ where: { id: { [Op.in]: locIds } }, attributes: ['id', 'longitude', 'latitude'], raw: true })) as unknown as Array<
            Record<string, unknown>
          >)
        : [];
      const pos = new Map(locs.map((l) => [Number(l.id), [Number(l.longitude), Number(l.latitude)] as [number, number]]));
      return {
        inTransit: transit,
        warehouses: warehouses
          .filter((w) => w.visibleInMap !== false && w.visibleInMap !== 0 && pos.has(Number(w.locationId)))
          .map((w) => ({
            id: Number(w.id),
            name: String(w.name),
            color: (w.color as string | null) ?? null,
            lnglat: pos.get(Number(w.locationId))!,
            count: stock.get(Number(w.id)) ?? 0,
          })),
      };
    },
  });
}

export default definePlugin({ id: 'dashboard', server: installDashboard });
