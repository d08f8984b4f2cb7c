/**
 * Maintenance records (SPEC §3 "Asset maintenance record"): the repair workflow is declared
 * (metadata `transitions`: apply, start, complete, audit, reject, with their inputs, stamps and
 * the guard that the auditor is not the applicant); this file is what a step does to the carrier
 * and its asset:
 *
 * - create (the worker's application): applicant and apply time stamped, the carrier's serial,
 *   code and asset kept; a scrapped carrier, or one with an open record, is refused;
 * - start: the carrier (new, in use, standby or damaged) goes to maintenance (50) through its
 *   own status step, its former status kept on the record; a lost one is refused;
 * - complete: the findings a repair needs must be there (root cause, strategy, hours; pictures
 *   for a repair);
 * - audit: the carrier returns to its former status (in use or standby; a new or damaged one to
 *   standby), the asset counts the maintenance and dates the next one from its cycle;
 * - reject: a completed repair rejected leaves the carrier damaged (60), awaiting a new application.
 */
import { Enums, statusGroup } from '@rti/metadata';
import { ApiError, ErrorCode, invalid, tKey, type PluginServerContext, type RequestContext, type TransitionEvent } from '@rti/server/plugin-api';
import { Op, type Transaction } from 'sequelize';
import { addDays, ASSET, changesOf, dayString, empty, enumLabel, fieldLabel, operatorOf, RECORD, snList, writeAssetLog, type Row } from './common';

const C = Enums.carrierStatus;
const M = Enums.maintenanceStatus;
/** carrier statuses a repair may start from (a carrier already in maintenance keeps it) */
const REPAIRABLE: number[] = [C.new, C.inUse, C.standby, C.damaged, C.maintenance];
/** former statuses a repaired carrier returns to as they were; any other returns to standby */
const RETURNS_AS_WAS: number[] = [C.inUse, C.standby];
/** what a completed repair must say (and, for a repair, show) */
const FINDINGS = ['rootCauseId', 'strategy', 'hours'] as const;

export function registerRecords(ctx: PluginServerContext): void {
  const res = ctx.metadata.resources[RECORD];
  const open = statusGroup(res, 'open').map(Number);

  /** The carrier of an application, checked: repairable, no other open record. */
  async function applicationCarrier(call: RequestContext, carrierId: number, transaction: Transaction, selfId: number | null): Promise<Row> {
    const [carrier] = await ctx
      .repo('carrier', call)
      .rows({ id: carrierId }, { attributes: ['id', 'sn', 'status', 'carrierCodeId'], transaction, lock: 'update' });
    if (!carrier) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
    // a scrapped carrier is not repaired; a lost one may be applied for (found damaged), but the
    // repair starts only once it is back (start checks REPAIRABLE)
    if (Number(carrier.status) === C.scrapped) {
      throw new ApiError(ErrorCode.statusForbidden, 'maintenance.carrierNotRepairable', {
        sn: String(carrier.sn),
        status: enumLabel('carrierStatus', carrier.status),
      });
    }
    const where: Row = { carrierId, status: { [Op.in]: open } };
    if (selfId !== null) where.id = { [Op.ne]: selfId };
    const [other] = await ctx.repo(RECORD, ctx.systemContext(call.orgId!, call.language)).rows(where, { attributes: ['recordNo'], transaction, limit: 1 });
    if (other) throw new ApiError(ErrorCode.statusForbidden, 'maintenance.openRecordExists', { sn: String(carrier.sn), recordNo: String(other.recordNo) });
    return carrier;
  }

  /** The carrier's asset, and where it stands (area and department, kept on the record for the reports). */
  async function assetOf(call: RequestContext, carrierId: number, transaction: Transaction): Promise<Row> {
    const [asset] = await ctx.repo(ASSET, call).rows({ carrierId }, { attributes: ['id', 'areaId', 'departmentId'], transaction, limit: 1 });
    return { carrierAssetId: asset ? Number(asset.id) : null, areaId: asset?.areaId ?? null, departmentId: asset?.departmentId ?? null };
  }

  // ---- the application -----------------------------------------------------------------------
  ctx.hooks.before('create', RECORD, async (e) => {
    const data = e.data!;
    // what broke is the application itself (not a declared `required`: the step "apply" writes
    // the field too, and a step validates its inputs before it finds its rows)
    if (empty(data.breakdownDescription)) throw invalid('required', 'breakdownDescription');
    const carrier = await applicationCarrier(e.ctx, Number(data.carrierId), e.transaction, null);
    Object.assign(data, {
      applicant: operatorOf(e.ctx),
      applyTime: new Date(),
      carrierSn: carrier.sn,
      carrierCodeId: carrier.carrierCodeId ?? null,
      ...(await assetOf(e.ctx, Number(carrier.id), e.transaction)),
    });
  });
  // the asset shows the application at once (its list, the public page); a deleted application
  // gives the asset back the status of the carrier's latest other record, or none
  ctx.hooks.after('create', RECORD, async (e) => {
    await ctx.repo(ASSET, e.ctx).updateWhere({ maintenanceStatus: M.new }, { carrierId: e.row!.carrierId }, { transaction: e.transaction });
  });
  ctx.hooks.after('delete', RECORD, async (e) => {
    const carrierId = e.row!.carrierId;
    const system = ctx.systemContext(e.ctx.orgId!, e.ctx.language);
    const [latest] = await ctx
      .repo(RECORD, system)
      .rows({ carrierId, id: { [Op.ne]: e.row!.id } }, { attributes: ['status'], order: [['id', 'DESC']], limit: 1, transaction: e.transaction });
    await ctx.repo(ASSET, system).updateWhere({ maintenanceStatus: latest ? Number(latest.status) : null }, { carrierId }, { transaction: e.transaction });
  });
  ctx.hooks.before('update', RECORD, async (e) => {
    const data = e.data!;
    const prev = e.previous!;
    if ('breakdownDescription' in data && empty(data.breakdownDescription)) throw invalid('required', 'breakdownDescription');
    if (!('carrierId' in data) || Number(data.carrierId) === Number(prev.carrierId)) return;
    // the carrier is the application's: once the repair has started it is the one repaired
    if (Number(prev.status) !== M.new) throw new ApiError(ErrorCode.statusForbidden, 'maintenance.carrierFixed', { title: String(prev.recordNo) });
    const carrier = await applicationCarrier(e.ctx, Number(data.carrierId), e.transaction, Number(prev.id));
    Object.assign(data, { carrierSn: carrier.sn, carrierCodeId: carrier.carrierCodeId ?? null, ...(await assetOf(e.ctx, Number(carrier.id), e.transaction)) });
  });

  // ---- apply again (after a rejection) ----------------------------------------------------------
  ctx.transitions.on(RECORD, 'apply', async (e) => {
    for (const r of e.rows) await applicationCarrier(e.ctx, Number(r.carrierId), e.transaction, Number(r.id));
    await markAssets(e, M.new);
  });

  // ---- start: the carrier goes to maintenance -----------------------------------------------
  ctx.transitions.on(RECORD, 'start', async (e) => {
    const carriers = await carriersOf(e);
    const bad = carriers.filter((c) => !REPAIRABLE.includes(Number(c.status)));
    if (bad.length)
      throw new ApiError(ErrorCode.statusForbidden, 'maintenance.carrierNotRepairable', {
        sn: snList(bad.map((c) => String(c.sn))),
        status: enumLabel('carrierStatus', bad[0].status),
      });
    const byId = new Map(carriers.map((c) => [Number(c.id), c]));
    // the status it returns to when audited (one already in maintenance: none, it goes to standby)
    const byFormer = new Map<number | null, number[]>();
    for (const r of e.rows) {
      const status = Number(byId.get(Number(r.carrierId))?.status);
      const former = status === C.maintenance || Number.isNaN(status) ? null : status;
      byFormer.set(former, [...(byFormer.get(former) ?? []), Number(r.id)]);
    }
    for (const [former, ids] of byFormer) await e.repo(RECORD).updateWhere({ carrierFormerStatus: former }, { id: { [Op.in]: ids } });
    const moving = carriers.filter((c) => Number(c.status) !== C.maintenance).map((c) => Number(c.id));
    if (moving.length) await e.run('carrier', 'statusUpdate', moving, { status: C.maintenance });
    await markAssets(e, M.inProgress);
  });

  // ---- complete: the findings must be there ------------------------------------------------------
  ctx.transitions.on(RECORD, 'complete', async (e) => {
    for (const r of e.rows) {
      const missing: string[] = FINDINGS.filter((f) => empty(r[f]));
      if (Number(r.type) === Enums.maintenanceType.repair && empty(r.maintainPictures)) missing.push('maintainPictures');
      if (missing.length) {
        throw new ApiError(ErrorCode.validation, 'maintenance.findingsRequired', {
          step: tKey('transitions.completeRepair'),
          title: String(r.recordNo),
          fields: missing.map((f) => fieldLabel(res, f)),
        });
      }
    }
    await markAssets(e, M.completed);
  });

  // ---- audit: the carrier returns, the asset counts the maintenance -------------------------------
  ctx.transitions.on(RECORD, 'audit', async (e) => {
    const carriers = new Map((await carriersOf(e)).map((c) => [Number(c.id), c]));
    const byTarget = new Map<number, number[]>();
    for (const r of e.rows) {
      const c = carriers.get(Number(r.carrierId));
      // moved meanwhile by someone else (scrapped, lost): left where it is
      if (!c || Number(c.status) !== C.maintenance) continue;
      const former = r.carrierFormerStatus === null || r.carrierFormerStatus === undefined ? null : Number(r.carrierFormerStatus);
      const target = former !== null && RETURNS_AS_WAS.includes(former) ? former : C.standby;
      byTarget.set(target, [...(byTarget.get(target) ?? []), Number(c.id)]);
    }
    for (const [status, ids] of byTarget) await e.run('carrier', 'statusUpdate', [...new Set(ids)], { status });
    await countMaintenance(e);
  });

  // ---- reject: an application refused, or a completed repair not accepted ---------------------------
  ctx.transitions.on(RECORD, 'reject', async (e) => {
    const wasDone = new Set(e.previous.filter((p) => Number(p.status) === M.completed).map((p) => Number(p.carrierId)));
    if (wasDone.size) {
      const damaged = (await carriersOf(e)).filter((c) => wasDone.has(Number(c.id)) && Number(c.status) === C.maintenance).map((c) => Number(c.id));
      if (damaged.length) await e.run('carrier', 'statusUpdate', damaged, { status: C.damaged });
    }
    await markAssets(e, M.rejected);
  });

  /** The records' carriers, locked; one the caller may not see (another warehouse) refuses the step. */
  async function carriersOf(e: TransitionEvent): Promise<Row[]> {
    const ids = [...new Set(e.rows.map((r) => Number(r.carrierId)))];
    const found = await e.repo('carrier').rows({ id: { [Op.in]: ids } }, { attributes: ['id', 'sn', 'status'], lock: 'update' });
    if (found.length !== ids.length) {
      const seen = new Set(found.map((c) => Number(c.id)));
      const away = e.rows.filter((r) => !seen.has(Number(r.carrierId))).map((r) => String(r.carrierSn ?? r.recordNo));
      throw new ApiError(ErrorCode.statusForbidden, 'maintenance.carrierOutOfScope', { sns: snList([...new Set(away)]) });
    }
    return found;
  }

  /** The asset shows the state of its latest repair. */
  async function markAssets(e: TransitionEvent, status: number): Promise<void> {
    const carrierIds = [...new Set(e.rows.map((r) => Number(r.carrierId)))];
    await e.repo(ASSET).updateWhere({ maintenanceStatus: status }, { carrierId: { [Op.in]: carrierIds } });
  }

  /** Audited: one more maintenance on the asset, last date the repair's end, next from the cycle. */
  async function countMaintenance(e: TransitionEvent): Promise<void> {
    const carrierIds = [...new Set(e.rows.map((r) => Number(r.carrierId)))];
    const assets = await e.repo(ASSET).rows(
      { carrierId: { [Op.in]: carrierIds } },
      {
        attributes: [
          'id',
          'sn',
          'carrierId',
          'maintenanceCount',
          'maintenanceStatus',
          'lastMaintenanceDate',
          'nextMaintenanceDate',
          'maintainCycle',
          'tripsAtLastMaintenance',
        ],
        lock: 'update',
      },
    );
    // trips count again from here (maintenance due by use)
    const trips = new Map(
      (await e.repo('carrier').rows({ id: { [Op.in]: carrierIds } }, { attributes: ['id', 'cycleCount'] })).map((c) => [
        Number(c.id),
        Number(c.cycleCount) || 0,
      ]),
    );
    const logs = [];
    for (const a of assets) {
      const record = e.rows.find((r) => Number(r.carrierId) === Number(a.carrierId))!;
      const last = dayString(record.endTime ? new Date(record.endTime as string) : e.at);
      const cycle = Number(a.maintainCycle) || 0;
      const after = {
        maintenanceCount: (Number(a.maintenanceCount) || 0) + 1,
        maintenanceStatus: M.audited,
        lastMaintenanceDate: last,
        nextMaintenanceDate: cycle > 0 ? addDays(last, cycle) : null,
        tripsAtLastMaintenance: trips.get(Number(a.carrierId)) ?? 0,
      };
      await e.repo(ASSET).updateWhere(after, { id: a.id });
      logs.push({
        sn: a.sn as string,
        action: Enums.operationLogAction.update,
        content: { step: 'maintenance', record: record.recordNo, changes: changesOf(a, after, Object.keys(after)) },
      });
    }
    await writeAssetLog(ctx, e.ctx, logs, e.transaction);
  }
}
