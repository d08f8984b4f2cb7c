/**
 * Warehouse calls of SPEC §7: the map layer (warehouses with their location's coordinates),
 * their names, and the warehouses the caller may work in. The warehouse repository already
 * narrows restricted users to their warehouses.
 */
import { Op } from 'sequelize';
import type { PluginServerContext } from '@rti/server/plugin-api';

export function installWarehouseCalls(ctx: PluginServerContext): void {
  ctx.addCall({
    path: '/warehouse/map',
    resource: 'warehouse',
    async handler({ ctx: call }) {
      const warehouses = ctx.repo('warehouse', call);
      const rows = await warehouses.serialize(await warehouses.findAll({ where: { visibleInMap: true }, order: [['name', 'ASC']] }));
      const locationIds = [...new Set(rows.map((r) => r.locationId).filter((id) => id !== null && id !== undefined))] as number[];
      const locations = ctx.repo('location', call);
      const byId = new Map(
        locationIds.length ? (await locations.findAll({ where: { id: { [Op.in]: locationIds } } })).map((l) => [Number(l.get('id')), l]) : [],
      );
      return rows.map((w) => {
        const loc = w.locationId ? byId.get(Number(w.locationId)) : undefined;
        return {
          id: w.id,
          code: w.code,
          name: w.name,
          shortName: w.shortName ?? null,
          color: w.color ?? null,
          fenceVisibleInMap: w.fenceVisibleInMap ?? null,
          locationId: w.locationId ?? null,
          address: loc ? loc.get('address') : null,
          longitude: loc ? Number(loc.get('longitude')) : null,
          latitude: loc ? Number(loc.get('latitude')) : null,
          fenceRadius: loc ? loc.get('fenceRadius') : null,
        };
      });
    },
  });

  ctx.addCall({
    path: '/warehouse/map/name',
    resource: 'warehouse',
    async handler({ ctx: call }) {
      const repo = ctx.repo('warehouse', call);
      return (await repo.findAll({ where: { visibleInMap: true }, attributes: ['id', 'name'], order: [['name', 'ASC']] })).map((r) => ({
        id: r.get('id'),
        name: r.get('name'),
      }));
    },
  });

  ctx.addCall({
    path: '/warehouse/list/user',
    resource: 'warehouse',
    async handler({ ctx: call }) {
      const repo = ctx.repo('warehouse', call);
      return (await repo.findAll({ attributes: ['id', 'code', 'name', 'shortName'], order: [['name', 'ASC']] })).map((r) => r.get({ plain: true }));
    },
  });
}
