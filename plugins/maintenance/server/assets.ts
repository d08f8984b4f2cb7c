/**
 * Carrier assets (SPEC §3 "Carrier asset"): the rows of the carriers an asset team manages.
 * Declared: the list, edit, detail, export, import and the status steps accept → enable → scrap.
 * Here: `refresh` (asset rows made and kept up to date from the carriers of asset-managed carrier
 * codes, set-based, keeping what the asset team typed), scrapping an asset scraps its carrier,
 * and every change in the carrier asset log.
 */
import { apiCode, Enums, statusGroup } from '@rti/metadata';
import { ApiError, ErrorCode, type PluginServerContext, type ScopedRepository } from '@rti/server/plugin-api';
import { Op } from 'sequelize';
import { addDays, ASSET, ASSET_LOG, changesOf, dayString, operatorOf, RECORD, REFRESH_RUN, snList, writeAssetLog, type Row } from './common';

const C = Enums.carrierStatus;
const Action = Enums.operationLogAction;
/** carriers per refresh transaction (REFRESH_CHUNK: a smaller one shows progress on a small pool, for tests) */
const chunkSize = () => Math.max(1, Number(process.env.REFRESH_CHUNK) || 5000);
/** an unfinished refresh not heard of for this long died with its server */
const STALE_MS = 10 * 60_000;
/** a column of the rows an INSERT … SELECT writes (the repository's insertFrom) */
type InsertFromValue = Parameters<ScopedRepository['insertFrom']>[1][string];

export function registerAssets(ctx: PluginServerContext): void {
  const res = ctx.metadata.resources[ASSET];
  const logged = res.fields.filter((f) => !['id', 'createdAt', 'updatedAt'].includes(f.name)).map((f) => f.name);
  const openRecords = statusGroup(ctx.metadata.resources[RECORD], 'open').map(Number);

  // ---- an asset registered by import: its carrier's serial and code, the code's cycles ------------
  ctx.hooks.before('create', ASSET, async (e) => {
    const data = e.data!;
    const [c] = await ctx
      .repo('carrier', e.ctx)
      .rows({ id: data.carrierId }, { attributes: ['id', 'sn', 'status', 'carrierCodeId', 'startTime', 'cycleCount'], transaction: e.transaction });
    if (!c) throw new ApiError(ErrorCode.notFound, 'server.errors.10002', { importCode: Enums.assetImportError.assetNotFound });
    if (Number(c.status) === C.scrapped)
      throw new ApiError(ErrorCode.statusForbidden, 'maintenance.carrierScrapped', { sn: String(c.sn), importCode: Enums.assetImportError.assetScrapped });
    // one asset per carrier (the import's key finds those already in the file and the system;
    // this is the rule for every other way in, the carrier row locked so two writers take turns)
    await ctx.repo('carrier', e.ctx).rows({ id: c.id }, { attributes: ['id'], transaction: e.transaction, lock: 'update' });
    const [twin] = await ctx
      .repo(ASSET, ctx.systemContext(e.ctx.orgId!, e.ctx.language))
      .rows({ carrierId: c.id }, { attributes: ['id'], transaction: e.transaction, limit: 1 });
    if (twin) throw new ApiError(ErrorCode.duplicate, 'maintenance.assetExists', { sn: String(c.sn) });
    const [code] = await ctx
      .repo('carrier-code', e.ctx)
      .rows({ id: c.carrierCodeId }, { attributes: ['name', 'spec', 'maintainCycle', 'warnCycle'], transaction: e.transaction });
    data.sn = c.sn;
    data.carrierCodeId = c.carrierCodeId ?? null;
    data.tripsAtLastMaintenance = Number(c.cycleCount) || 0;
    if (code) {
      for (const [mine, theirs] of [
        ['name', 'name'],
        ['specModel', 'spec'],
        ['maintainCycle', 'maintainCycle'],
        ['warnCycle', 'warnCycle'],
      ] as const)
        if (data[mine] === undefined || data[mine] === null) data[mine] = code[theirs] ?? null;
    }
    const cycle = Number(data.maintainCycle) || 0;
    const since = (data.usageTime as string | undefined) ?? (c.startTime ? dayString(new Date(c.startTime as string)) : dayString(new Date()));
    if (cycle > 0 && !data.nextMaintenanceDate) data.nextMaintenanceDate = addDays(since, cycle);
  });
  ctx.hooks.after('create', ASSET, async (e) => {
    await writeAssetLog(ctx, e.ctx, [{ sn: (e.row!.sn as string) ?? null, action: Action.create, content: { carrierId: e.row!.carrierId } }], e.transaction);
  });
  // the asset stays its carrier's
  ctx.hooks.before('update', ASSET, (e) => {
    if ('carrierId' in e.data! && Number(e.data!.carrierId) !== Number(e.previous!.carrierId))
      throw new ApiError(ErrorCode.statusForbidden, 'maintenance.assetCarrierFixed', { sn: String(e.previous!.sn) });
  });

  // ---- the carrier asset log: every change made through the calls and the steps ---------------
  ctx.hooks.after('update', ASSET, async (e) => {
    const changes = changesOf(e.previous, e.row!, logged);
    if (!Object.keys(changes).length) return;
    await writeAssetLog(
      ctx,
      e.ctx,
      [{ sn: (e.row!.sn as string) ?? null, action: Action.update, content: { ...(e.step ? { step: e.step.name } : {}), changes } }],
      e.transaction,
    );
  });
  ctx.hooks.after('delete', ASSET, async (e) => {
    await writeAssetLog(ctx, e.ctx, [{ sn: (e.row!.sn as string) ?? null, action: Action.delete, content: { id: e.row!.id } }], e.transaction);
  });

  // ---- scrap: the carrier is scrapped with its asset ---------------------------------------------
  ctx.transitions.on(ASSET, 'scrap', async (e) => {
    const carrierIds = [...new Set(e.rows.map((r) => Number(r.carrierId)).filter((id) => id > 0))];
    if (!carrierIds.length) return;
    const repairing = await e
      .repo(RECORD)
      .rows({ carrierId: { [Op.in]: carrierIds }, status: { [Op.in]: openRecords } }, { attributes: ['recordNo', 'carrierSn'], limit: 10 });
    if (repairing.length) {
      throw new ApiError(ErrorCode.statusForbidden, 'maintenance.assetUnderRepair', {
        sns: snList(repairing.map((r) => String(r.carrierSn))),
        records: snList(repairing.map((r) => String(r.recordNo))),
      });
    }
    const carriers = await e.repo('carrier').rows({ id: { [Op.in]: carrierIds }, status: { [Op.ne]: C.scrapped } }, { attributes: ['id'], lock: 'update' });
    if (carriers.length)
      await e.run(
        'carrier',
        'statusUpdate',
        carriers.map((c) => Number(c.id)),
        { status: C.scrapped },
      );
  });

  // ---- refresh: asset rows from the carriers of asset-managed carrier codes ------------------------
  // Its progress is a row of carrier-asset-refresh-run, written with every chunk's transaction: any
  // server instance answers `/carrier-asset/refresh/progress` from the database, none keeps it in memory.
  // Code by code, chunk by chunk of its carriers: the missing assets and their log rows are two
  // INSERT … SELECT from the carriers (the code's name, cycles and dates are constants of the
  // statement), so no asset row travels through the server. Between chunks the run's row is read:
  // a cancel (`/carrier-asset/refresh/cancel`, from any instance) stops the run there.
  ctx.addCall({
    path: '/carrier-asset/refresh',
    input: { carrierCodeId: { type: 'ref', label: 'fields.carrierCode' } },
    async handler({ input, ctx: call }) {
      // asset-managed: the carrier code has a maintenance cycle
      const codeWhere: Row = { maintainCycle: { [Op.gt]: 0 } };
      if (input.carrierCodeId) codeWhere.id = input.carrierCodeId;
      const codes = await ctx
        .repo('carrier-code', call)
        .rows(codeWhere, { attributes: ['id', 'name', 'spec', 'maintainCycle', 'warnCycle'], order: [['id', 'ASC']] });
      const out = { carriers: 0, created: 0, updated: 0, runId: null as number | null, cancelled: false };
      if (!codes.length) return out;
      const runs = ctx.repo(REFRESH_RUN, call);
      const total = await ctx.repo('carrier', call).count({ carrierCodeId: { [Op.in]: codes.map((c) => Number(c.id)) } });
      const run = await runs.create({ operator: operatorOf(call), startTime: Date.now(), carriers: total, done: 0, created: 0, updated: 0 });
      out.runId = Number(run.id);
      const today = dayString(new Date());
      const chunk = chunkSize();
      const operator = operatorOf(call);
      const cancelled = async () => !!(await runs.rows({ id: out.runId }, { attributes: ['cancelledAt'] }))[0]?.cancelledAt;
      try {
        codes: for (const code of codes) {
          const codeId = Number(code.id);
          const cycle = Number(code.maintainCycle) || 0;
          // the asset of a carrier: its own serial, trips and start day, the rest its code's
          const asset: Record<string, InsertFromValue> = {
            carrierId: { field: 'id' },
            sn: { field: 'sn' },
            carrierCodeId: { value: codeId },
            name: { value: code.name ?? null },
            specModel: { value: code.spec ?? null },
            status: { value: Enums.carrierAssetStatus.new },
            fixedAsset: { value: Enums.fixedAsset.no },
            maintenanceCount: { value: 0 },
            maintainCycle: { value: cycle || null },
            warnCycle: { value: Number(code.warnCycle) || null },
            usageTime: { day: 'startTime', ifNull: today },
            nextMaintenanceDate: cycle > 0 ? { day: 'startTime', plusDays: cycle, ifNull: today } : { value: null },
            tripsAtLastMaintenance: { field: 'cycleCount', ifNull: 0 },
          };
          const log = (): Record<string, InsertFromValue> => ({
            sn: { field: 'sn', ifNull: '-' },
            action: { value: Action.create },
            content: { value: JSON.stringify({ step: 'refresh', carrierCodeId: codeId }) },
            operator: { value: operator },
            time: { value: new Date() },
          });
          let lastId = 0;
          for (;;) {
            if (await cancelled()) {
              out.cancelled = true;
              break codes;
            }
            const step = await ctx.transaction(call, async (repo, transaction) => {
              // the code's carriers by primary key (its index holds the id: one range per chunk);
              // locked: a concurrent refresh (or import) of the same carriers waits, so no carrier gets two assets
              const read = await repo('carrier').rows(
                { carrierCodeId: codeId, id: { [Op.gt]: lastId } },
                { attributes: ['id', 'sn'], order: [['id', 'ASC']], limit: chunk, lock: 'update' },
              );
              if (!read.length) return null;
              const first = Number(read[0].id);
              const last = Number(read[read.length - 1].id);
              const existing = await repo(ASSET).rows(
                { carrierId: { [Op.in]: read.map((c) => Number(c.id)) } },
                { attributes: ['id', 'carrierId', 'sn', 'carrierCodeId'] },
              );
              const have = new Map(existing.map((a) => [Number(a.carrierId), a]));
              // the carrier's own identity follows it; what the asset team typed stays
              const changed: Array<{ id: unknown; sn: string; changes: Record<string, [unknown, unknown]> }> = [];
              for (const c of read) {
                const a = have.get(Number(c.id));
                if (!a || (a.sn === c.sn && Number(a.carrierCodeId) === codeId)) continue;
                await repo(ASSET).updateWhere({ sn: c.sn, carrierCodeId: codeId }, { id: a.id });
                changed.push({ id: a.id, sn: String(c.sn), changes: changesOf(a, { sn: c.sn, carrierCodeId: codeId }, ['sn', 'carrierCodeId']) });
              }
              await writeAssetLog(
                ctx,
                call,
                changed.map((u) => ({ sn: u.sn, action: Action.update, content: { step: 'refresh', changes: u.changes } })),
                transaction,
              );
              // the carriers of the chunk without an asset: the whole range when none has one
              const missing = read.map((c) => Number(c.id)).filter((id) => !have.has(id));
              let created = 0;
              if (missing.length) {
                const where = missing.length === read.length ? { carrierCodeId: codeId, id: { [Op.between]: [first, last] } } : { id: { [Op.in]: missing } };
                created = await repo(ASSET).insertFrom('carrier', asset, where);
                await repo(ASSET_LOG).insertFrom('carrier', log(), where);
              }
              // the progress, committed with the chunk it counts
              await runs.increment({ done: read.length, created, updated: changed.length }, { id: out.runId }, { transaction });
              return { last, carriers: read.length, created, updated: changed.length };
            });
            if (!step) break;
            lastId = step.last;
            out.carriers += step.carriers;
            out.created += step.created;
            out.updated += step.updated;
          }
        }
      } catch (err) {
        await runs.updateWhere({ endTime: new Date(), error: (err instanceof Error ? err.message : String(err)).slice(0, 500) }, { id: out.runId });
        throw err;
      }
      // carriers made meanwhile may make `done` pass the count taken at the start; a cancel that
      // came after the last chunk's check finds the run complete
      await runs.updateWhere(
        { endTime: new Date(), ...(out.cancelled ? {} : { carriers: Math.max(total, out.carriers), cancelledAt: null, cancelledBy: null }) },
        { id: out.runId },
      );
      return out;
    },
  });

  // ---- cancel: the run's row says so, the refresh stops before its next chunk (whichever instance runs it) ----
  ctx.addCall({
    path: '/carrier-asset/refresh/cancel',
    permission: apiCode('/carrier-asset/refresh'),
    input: { runId: { type: 'int' } },
    async handler({ input, ctx: call }) {
      const runs = ctx.repo(REFRESH_RUN, call);
      const where: Row = { endTime: null, ...(input.runId ? { id: input.runId } : {}) };
      const [run] = await runs.rows(where, { attributes: ['id', 'updatedAt', 'cancelledAt'], order: [['id', 'DESC']], limit: 1 });
      if (!run) return { runId: input.runId ?? null, cancelled: false };
      // a run whose server died is not coming back to see the mark: it ends here
      const stale = Date.now() - new Date(run.updatedAt as string).getTime() > STALE_MS;
      await runs.updateWhere(
        { ...(run.cancelledAt ? {} : { cancelledAt: new Date(), cancelledBy: operatorOf(call) }), ...(stale ? { endTime: new Date() } : {}) },
        { id: run.id, endTime: null },
      );
      return { runId: Number(run.id), cancelled: true };
    },
  });

  // ---- the progress of the organisation's latest refresh (whoever may refresh may watch) ------------
  ctx.addCall({
    path: '/carrier-asset/refresh/progress',
    permission: apiCode('/carrier-asset/refresh'),
    input: { runId: { type: 'int' } },
    async handler({ input, ctx: call }) {
      const where: Row = input.runId ? { id: input.runId } : {};
      const [run] = await ctx.repo(REFRESH_RUN, call).rows(where, { order: [['id', 'DESC']], limit: 1 });
      if (!run) return null;
      const carriers = Number(run.carriers) || 0;
      const done = Math.min(Number(run.done) || 0, carriers);
      const running = !run.endTime;
      return {
        runId: Number(run.id),
        operator: run.operator ?? null,
        startTime: run.startTime,
        endTime: run.endTime ?? null,
        carriers,
        done,
        created: Number(run.created) || 0,
        updated: Number(run.updated) || 0,
        percent: carriers ? Math.floor((done / carriers) * 100) : running ? 0 : 100,
        running,
        // a run its server never finished (stopped mid-way): not running any more
        stale: running && Date.now() - new Date(run.updatedAt as string).getTime() > STALE_MS,
        error: run.error ?? null,
        // cancelled: stopping (still running) until its current chunk commits, then stopped
        cancelled: !!run.cancelledAt,
        cancelledBy: run.cancelledBy ?? null,
      };
    },
  });
}
