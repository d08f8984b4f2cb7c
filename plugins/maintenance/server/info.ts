/**
 * /info/mainten?token=…: what anyone sees after scanning the code fixed to a rack (the asset's
 * public link, metadata `publicLink`): the asset, its maintenance state and its repair history,
 * read-only, without signing in. The platform owns the token, throttle and call; this is the
 * page's content, read in the token's organisation only.
 */
import { statusGroup } from '@rti/metadata';
import type { PluginServerContext, RequestContext } from '@rti/server/plugin-api';
import { Op } from 'sequelize';
import { ASSET, RECORD } from './common';

/** repairs shown on the page, newest first */
const HISTORY = 20;

export function registerInfo(ctx: PluginServerContext): void {
  const open = statusGroup(ctx.metadata.resources[RECORD], 'open').map(Number);
  ctx.publicLinks.reader(ASSET, async (call: RequestContext, id: number) => {
    const asset = await ctx.repo(ASSET, call).get({ id });
    const records = ctx.repo(RECORD, call);
    const [history, total] = await Promise.all([
      records.rows(
        { carrierId: asset.carrierId ?? -1 },
        {
          attributes: ['recordNo', 'type', 'status', 'pattern', 'breakdownDescription', 'applyTime', 'startTime', 'endTime', 'auditTime', 'strategy', 'hours'],
          order: [['id', 'DESC']],
          limit: HISTORY,
        },
      ),
      records.count({ carrierId: asset.carrierId ?? -1 }),
    ]);
    const [carrier] = asset.carrierId ? await ctx.repo('carrier', call).rows({ id: asset.carrierId }, { attributes: ['status'] }) : [];
    const current = await records.rows({ carrierId: asset.carrierId ?? -1, status: { [Op.in]: open } }, { attributes: ['recordNo', 'status'], limit: 1 });
    return {
      asset: {
        id: asset.id,
        sn: asset.sn,
        name: asset.name ?? null,
        carrierId: asset.carrierId ?? null,
        carrierCode: asset.carrierCodeIdLabel ?? null,
        carrierStatus: carrier?.status ?? null,
        status: asset.status,
        area: asset.areaIdLabel ?? null,
        department: asset.departmentIdLabel ?? null,
        placement: asset.placement ?? null,
        responsible: asset.responsible ?? null,
        maintenanceCount: asset.maintenanceCount ?? 0,
        maintenanceStatus: asset.maintenanceStatus ?? null,
        lastMaintenanceDate: asset.lastMaintenanceDate ?? null,
        nextMaintenanceDate: asset.nextMaintenanceDate ?? null,
        items: asset.items ?? null,
      },
      openRecord: current[0] ? { recordNo: current[0].recordNo, status: current[0].status } : null,
      history,
      historyTotal: total,
    };
  });
}
