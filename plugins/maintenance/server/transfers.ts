/**
 * Asset transfers (SPEC §3 "Asset transfer"): transferred out (create) → received (the declared
 * step). The transfer keeps the asset's old area, department, placement, OA department,
 * responsible person and employee no.; the asset takes the new ones only when the transfer is
 * received. A scrapped asset is not transferred, and an asset is on one open transfer at a time.
 */
import { Enums } from '@rti/metadata';
import { ApiError, ErrorCode, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { Op, type Transaction } from 'sequelize';
import { ASSET, changesOf, empty, operatorOf, TRANSFER, writeAssetLog, type Row } from './common';

const T = Enums.assetTransferStatus;
/** asset field → the transfer's old / new field */
const MOVED = {
  areaId: 'AreaId',
  departmentId: 'DepartmentId',
  placement: 'Placement',
  oaDepartment: 'OaDepartment',
  responsible: 'Responsible',
  employeeNo: 'EmployeeNo',
} as const;
const ASSET_FIELDS = Object.keys(MOVED) as Array<keyof typeof MOVED>;

export function registerTransfers(ctx: PluginServerContext): void {
  /** The asset of a transfer, locked: not scrapped, on no other open transfer. */
  async function transferable(call: RequestContext, assetId: number, transaction: Transaction, selfId: number | null): Promise<Row> {
    const [asset] = await ctx.repo(ASSET, call).rows({ id: assetId }, { attributes: ['id', 'sn', 'status', ...ASSET_FIELDS], transaction, lock: 'update' });
    if (!asset) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
    if (Number(asset.status) === Enums.carrierAssetStatus.scrapped)
      throw new ApiError(ErrorCode.statusForbidden, 'maintenance.assetScrapped', { sn: String(asset.sn) });
    const where: Row = { carrierAssetId: assetId, status: T.transferredOut };
    if (selfId !== null) where.id = { [Op.ne]: selfId };
    const [other] = await ctx.repo(TRANSFER, call).rows(where, { attributes: ['transferNo'], transaction, limit: 1 });
    if (other) throw new ApiError(ErrorCode.statusForbidden, 'maintenance.transferOpen', { sn: String(asset.sn), transferNo: String(other.transferNo) });
    return asset;
  }
  const oldValues = (asset: Row): Row => Object.fromEntries(ASSET_FIELDS.map((f) => [`old${MOVED[f]}`, asset[f] ?? null]));

  ctx.hooks.before('create', TRANSFER, async (e) => {
    const asset = await transferable(e.ctx, Number(e.data!.carrierAssetId), e.transaction, null);
    Object.assign(e.data!, oldValues(asset), { transferBy: operatorOf(e.ctx), transferTime: new Date() });
  });
  ctx.hooks.before('update', TRANSFER, async (e) => {
    const data = e.data!;
    if (!('carrierAssetId' in data) || Number(data.carrierAssetId) === Number(e.previous!.carrierAssetId)) return;
    Object.assign(data, oldValues(await transferable(e.ctx, Number(data.carrierAssetId), e.transaction, Number(e.previous!.id))));
  });

  // received: the asset takes the new values given (an empty one keeps the asset's)
  ctx.transitions.on(TRANSFER, 'receive', async (e) => {
    const logs = [];
    for (const t of e.rows) {
      const [asset] = await e.repo(ASSET).rows({ id: t.carrierAssetId }, { attributes: ['id', 'sn', 'status', ...ASSET_FIELDS], lock: 'update' });
      if (!asset) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
      if (Number(asset.status) === Enums.carrierAssetStatus.scrapped)
        throw new ApiError(ErrorCode.statusForbidden, 'maintenance.assetScrapped', { sn: String(asset.sn) });
      const values: Row = {};
      for (const f of ASSET_FIELDS) if (!empty(t[`new${MOVED[f]}`])) values[f] = t[`new${MOVED[f]}`];
      if (!Object.keys(values).length) continue;
      await e.repo(ASSET).updateWhere(values, { id: asset.id });
      logs.push({
        sn: String(asset.sn),
        action: Enums.operationLogAction.update,
        content: { step: 'transfer', transfer: t.transferNo, changes: changesOf(asset, { ...asset, ...values }, ASSET_FIELDS) },
      });
    }
    await writeAssetLog(ctx, e.ctx, logs, e.transaction);
  });
}
