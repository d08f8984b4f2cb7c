/**
 * Inventory adjustment orders (plugins/inventory/metadata/resources/inventory-adjustment.json):
 * the document, its carrier lines, numbers, frozen states, the one-open-adjustment-per-carrier
 * rule, scanning, batch add and the step new → adjusted are declared. What is left here is the
 * domain: which carriers an adjustment may hold (its type and warehouses), and what the step
 * `adjust` does to them — out of the source warehouse, into the target one, an in/out row per
 * warehouse touched and a carrier log each, all in the step's transaction, set-based.
 *
 * Types (SPEC §4): out and in 1 (source → target), out 2 (leave the source: written off the
 * books), in 3 (enter the target: a carrier found, or booked for the first time).
 *
 * Carriers move with conditional UPDATEs (`… WHERE id IN (…) AND warehouse = source AND in
 * stock`): when a release of a ship order or another adjustment moves one of them first, the
 * UPDATE matches fewer rows than carriers and the whole step is refused — exactly one wins.
 */
import { Enums, statusGroup } from '@rti/metadata';
import {
  ApiError,
  ErrorCode,
  invalid,
  repositoryPage,
  tKey,
  type BoundRepository,
  type HookEvent,
  type LinesEvent,
  type PluginServerContext,
  type RequestContext,
  type TransitionEvent,
} from '@rti/server/plugin-api';
import type {} from '@rti/plugin-telemetry/api';
import { Op, type Transaction } from 'sequelize';

type Row = Record<string, any>;

const Type = Enums.inventoryAdjustType;
const Transport = Enums.transportStatus;
const Direction = Enums.inoutDirection;
/** transport statuses of a carrier standing in a warehouse (unknown: registered there, never seen moving) — as shipping counts stock */
export const IN_STOCK: number[] = [Transport.unknown, Transport.inWarehouse, Transport.idle];
/** carrier statuses that cannot be moved by an adjustment */
const FINAL: number[] = [Enums.carrierStatus.scrapped];
/** serials named in a refusal at most (the rest are counted) */
const NAMED = 10;

export const snList = (sns: string[]): string => (sns.length > NAMED ? `${sns.slice(0, NAMED).join(', ')} … (+${sns.length - NAMED})` : sns.join(', '));
const operatorOf = (ctx: RequestContext) => (ctx.user?.realName || ctx.user?.username || 'system').slice(0, 50);
const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));

/** which warehouses the type moves carriers out of and into */
function sidesOf(header: Row): { source: number | null; target: number | null } {
  const type = Number(header.type);
  return {
    source: type === Type.in ? null : num(header.sourceWarehouseId),
    target: type === Type.out ? null : num(header.targetWarehouseId),
  };
}

function refusal(key: string, carriers: Row[], params: Record<string, unknown>, importCode: number): ApiError {
  return new ApiError(ErrorCode.statusForbidden, key, { count: carriers.length, sns: snList(carriers.map((c) => String(c.sn))), ...params, importCode });
}

export interface CarrierCheck {
  /** the organisation-wide carrier and document reads (a carrier's other documents may lie outside the caller's warehouses) */
  repo: (resource: string) => { rows(where: Record<string | symbol, unknown>, opts?: { attributes?: string[]; lock?: 'update' | 'share' }): Promise<Row[]> };
  header: Row;
  warehouseName: (id: number) => Promise<string>;
  shipOrderOpen: number[];
}

/**
 * The rules a carrier of an adjustment must meet, for lines being added and again when the
 * step runs (the world may have moved in between): in the source warehouse and in stock (out
 * and in, out), not standing in the target already nor booked in another warehouse (in), not
 * scrapped, not on an open ship order. Refuses with the SPEC §8 reason of the first rule broken.
 */
export async function checkCarriers(c: CarrierCheck, carriers: Row[]): Promise<void> {
  const { source, target } = sidesOf(c.header);
  const type = Number(c.header.type);
  if (type !== Type.in && source !== null) {
    const away = carriers.filter((x) => num(x.warehouseId) !== source || !IN_STOCK.includes(Number(x.transportStatus)));
    if (away.length)
      throw refusal(
        'inventory.notInSource',
        away,
        { warehouse: await c.warehouseName(source), reason: tKey('enums.sharedImportError.carrierNotInWarehouse') },
        Enums.sharedImportError.carrierNotInWarehouse,
      );
  }
  if (type === Type.in && target !== null) {
    const here = carriers.filter((x) => num(x.warehouseId) === target && IN_STOCK.includes(Number(x.transportStatus)));
    if (here.length)
      throw refusal('inventory.alreadyInTarget', here, { warehouse: await c.warehouseName(target) }, Enums.sharedImportError.carrierNotInWarehouse);
    const elsewhere = carriers.filter((x) => num(x.warehouseId) !== null && num(x.warehouseId) !== target && IN_STOCK.includes(Number(x.transportStatus)));
    if (elsewhere.length) throw refusal('inventory.bookedElsewhere', elsewhere, {}, Enums.sharedImportError.carrierNotInWarehouse);
  }
  const unusable = carriers.filter((x) => FINAL.includes(Number(x.status)));
  if (unusable.length) throw refusal('inventory.carrierUnavailable', unusable, {}, Enums.sharedImportError.carrierUnavailable);
  // a carrier on an open ship order belongs to that order until it is received or taken off
  const lines = await c.repo('ship-order-detail').rows(
    {
      carrierId: { [Op.in]: carriers.map((x) => Number(x.id)) },
      status: { [Op.in]: [Enums.shipOrderLineStatus.pending, Enums.shipOrderLineStatus.shipped] },
    },
    { attributes: ['carrierId', 'shipOrderId'], lock: 'share' },
  );
  if (!lines.length) return;
  const orders = await c
    .repo('ship-order')
    .rows({ id: { [Op.in]: [...new Set(lines.map((l) => Number(l.shipOrderId)))] }, status: { [Op.in]: c.shipOrderOpen } }, { attributes: ['id', 'orderNo'] });
  if (!orders.length) return;
  const open = new Map(orders.map((o) => [Number(o.id), String(o.orderNo)]));
  const onOrder = lines.filter((l) => open.has(Number(l.shipOrderId)));
  const ids = new Set(onOrder.map((l) => Number(l.carrierId)));
  throw refusal(
    'inventory.onShipOrder',
    carriers.filter((x) => ids.has(Number(x.id))),
    { order: open.get(Number(onOrder[0].shipOrderId)) },
    Enums.sharedImportError.carrierUnavailable,
  );
}

/** carriers an open adjustment or an open ship order holds (the organisation's, whatever the caller's warehouses) */
export async function heldCarriers(ctx: PluginServerContext, call: RequestContext): Promise<Set<number>> {
  const sys = ctx.systemContext(call.orgId!, call.language);
  const held = new Set<number>();
  const adjustOpen = statusGroup(ctx.metadata.resources['inventory-adjustment'], 'open').map(Number);
  const openAdjust = (await ctx.repo('inventory-adjustment', sys).rows({ status: { [Op.in]: adjustOpen } }, { attributes: ['id'] })).map((r) => Number(r.id));
  if (openAdjust.length)
    for (const l of await ctx.repo('inventory-adjust-detail', sys).rows({ inventoryAdjustId: { [Op.in]: openAdjust } }, { attributes: ['carrierId'] }))
      held.add(Number(l.carrierId));
  const onOrders = [Enums.shipOrderLineStatus.pending, Enums.shipOrderLineStatus.shipped];
  if (ctx.metadata.resources['ship-order-detail'])
    for (const l of await ctx.repo('ship-order-detail', sys).rows({ status: { [Op.in]: onOrders } }, { attributes: ['carrierId'] }))
      held.add(Number(l.carrierId));
  return held;
}

const CARRIER_COLUMNS = ['id', 'sn', 'name', 'carrierCodeId', 'warehouseId', 'transportStatus', 'status'];

/** a move of carriers per warehouse and code, for the closed days a back-dated step reaches into */
export interface StockMove {
  warehouseId: number;
  carrierCodeId: number | null;
  delta: number;
  direction: number;
}
export type OnMoved = (e: TransitionEvent, moves: StockMove[]) => Promise<void>;

export function installAdjustments(ctx: PluginServerContext, onMoved?: OnMoved): void {
  const shipOrderOpen = ctx.metadata.resources['ship-order'] ? statusGroup(ctx.metadata.resources['ship-order'], 'open').map(Number) : [];
  /** organisation-wide reads and writes inside a transaction: the document was checked against the caller's warehouses by the engine */
  const orgWide = (call: RequestContext, transaction: Transaction) => {
    const sys = ctx.systemContext(call.orgId!, call.language);
    return (resource: string) => {
      const repo = ctx.repo(resource, sys);
      return {
        rows: (
          where: Record<string | symbol, unknown>,
          opts: { attributes?: string[]; lock?: 'update' | 'share'; order?: Array<[string, 'ASC' | 'DESC']> } = {},
        ) => repo.rows(where, { ...opts, transaction }),
        updateWhere: (values: Record<string, unknown>, where: Record<string | symbol, unknown>) => repo.updateWhere(values, where, { transaction }),
        insertMany: (rows: Array<Record<string, unknown>>) => repo.insertMany(rows, { transaction }),
      };
    };
  };
  const warehouseNamer = (repo: CarrierCheck['repo']) => {
    const cache = new Map<number, string>();
    return async (id: number) => {
      if (!cache.has(id)) {
        const [w] = await repo('warehouse').rows({ id }, { attributes: ['id', 'name'] });
        cache.set(id, String(w?.name ?? `#${id}`));
      }
      return cache.get(id)!;
    };
  };

  // ---- /inventory/adjustment/carriers: what the order may still take (the picker) ----------------
  ctx.addCall({
    path: '/inventory/adjustment/carriers',
    input: {
      id: { type: 'ref', required: true, label: 'fields.inventoryAdjust' },
      sn: { type: 'string', maxLength: 64, label: 'fields.sn' },
      carrierCodeId: { type: 'ref', label: 'fields.carrierCode' },
    },
    paging: true,
    async handler({ input, ctx: call }) {
      const [doc] = await ctx
        .repo('inventory-adjustment', call)
        .rows({ id: input.id }, { attributes: ['id', 'type', 'status', 'sourceWarehouseId', 'targetWarehouseId'] });
      if (!doc) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
      const { source, target } = sidesOf(doc);
      const held = await heldCarriers(ctx, call);
      const where: Record<string | symbol, unknown> = {
        status: { [Op.or]: [{ [Op.notIn]: FINAL }, { [Op.is]: null }] },
        ...(Number(doc.type) === Type.in
          ? {
              [Op.or]: [{ warehouseId: null }, { transportStatus: { [Op.notIn]: IN_STOCK } }],
              ...(target !== null ? { warehouseId: { [Op.or]: [{ [Op.ne]: target }, { [Op.is]: null }] } } : {}),
            }
          : { warehouseId: source, transportStatus: { [Op.in]: IN_STOCK } }),
        ...(held.size ? { id: { [Op.notIn]: [...held] } } : {}),
        ...(input.sn ? { sn: { [Op.startsWith]: input.sn } } : {}),
        ...(input.carrierCodeId ? { carrierCodeId: input.carrierCodeId } : {}),
      };
      return repositoryPage(ctx.repo('carrier', call), { where, order: [['sn', 'ASC']], serialize: true }, { offset: input.offset, limit: input.limit });
    },
  });

  // ---- the header: which warehouses its type needs ----------------------------------------------
  const headerRule = async (e: HookEvent) => {
    const data = e.data!;
    const merged = { ...(e.previous ?? {}), ...data };
    const type = Number(merged.type);
    const need = (field: 'sourceWarehouseId' | 'targetWarehouseId', label: string) => {
      if (merged[field] === null || merged[field] === undefined || merged[field] === '') throw invalid('required', tKey(label));
    };
    if (type !== Type.in) need('sourceWarehouseId', 'fields.sourceWarehouse');
    if (type !== Type.out) need('targetWarehouseId', 'fields.targetWarehouse');
    // the side a type does not use stays empty (an "out" has no target)
    if (type === Type.out && merged.targetWarehouseId) data.targetWarehouseId = null;
    if (type === Type.in && merged.sourceWarehouseId) data.sourceWarehouseId = null;
  };
  ctx.hooks.before('create', 'inventory-adjustment', headerRule);
  ctx.hooks.before('update', 'inventory-adjustment', async (e) => {
    if (e.step) return; // the step writes its stamps only
    await headerRule(e);
  });

  // ---- the lines: carriers the type may move -----------------------------------------------------
  ctx.documents.onLines('inventory-adjustment', async (e: LinesEvent) => {
    const incoming = [...e.added, ...e.changed.filter((c) => 'carrierId' in c.values).map((c) => c.values)];
    if (!incoming.length) return;
    const ids = [...new Set(incoming.map((l) => Number(l.carrierId)))];
    const repo = orgWide(e.ctx, e.transaction);
    // the carrier rows are the lock concurrent writers of one carrier take turns on
    const carriers = await repo('carrier').rows({ id: { [Op.in]: ids } }, { attributes: CARRIER_COLUMNS, lock: 'update' });
    await checkCarriers({ repo, header: e.header, warehouseName: warehouseNamer(repo), shipOrderOpen }, carriers);
  });

  // ---- the step: carriers move -------------------------------------------------------------------
  ctx.transitions.on('inventory-adjustment', 'adjust', async (e: TransitionEvent) => {
    const moved: Array<{ id: number; warehouseId: number | null; direction: number; transportStatus: number; time: number }> = [];
    for (const doc of e.rows) moved.push(...(await adjust(e, doc)));
    const telemetry = ctx.tryUse('telemetry');
    if (telemetry && moved.length && e.ctx.orgId !== null) {
      const orgId = e.ctx.orgId;
      // the derived-state engine follows the books, so the next gateway pass does not undo them
      e.afterCommit(async () => {
        try {
          await telemetry.refresh();
          const placed = moved.filter((m) => m.warehouseId !== null);
          telemetry.placeCarriers(
            placed.map((m) => ({ id: m.id, orgId, direction: m.direction, warehouseId: m.warehouseId!, transportStatus: m.transportStatus, time: m.time })),
          );
        } catch (err) {
          ctx.log('[inventory] telemetry could not follow an adjustment', err);
        }
      });
    }
  });

  async function adjust(e: TransitionEvent, doc: Row) {
    const repo = orgWide(e.ctx, e.transaction);
    const title = String(doc.adjustOrderNo);
    const lines = await e.repo('inventory-adjust-detail').rows({ inventoryAdjustId: doc.id }, { attributes: ['id', 'carrierId', 'carrierSn'] });
    if (!lines.length) throw new ApiError(ErrorCode.statusForbidden, 'inventory.nothingToAdjust', { title });
    const ids = [...new Set(lines.map((l) => Number(l.carrierId)))];
    const carriers = await repo('carrier').rows({ id: { [Op.in]: ids } }, { attributes: CARRIER_COLUMNS, lock: 'update' });
    if (carriers.length !== ids.length) {
      const found = new Set(carriers.map((c) => Number(c.id)));
      throw new ApiError(ErrorCode.notFound, 'inventory.carriersNotFound', {
        sns: snList(lines.filter((l) => !found.has(Number(l.carrierId))).map((l) => String(l.carrierSn ?? ''))),
      });
    }
    const warehouseName = warehouseNamer(repo);
    await checkCarriers({ repo, header: doc, warehouseName, shipOrderOpen }, carriers);

    const { source, target } = sidesOf(doc);
    const at = e.at;
    const type = Number(doc.type);
    const to = target !== null ? Transport.inWarehouse : Transport.unknown;
    const values: Record<string, unknown> = { warehouseId: target, transportStatus: to };
    if (source !== null) Object.assign(values, { outboundWarehouseId: source, outboundTime: at });
    if (target !== null) Object.assign(values, { inboundWarehouseId: target, inboundTime: at });
    // conditional on what was checked: a carrier moved meanwhile makes the count fall short
    const where: Record<string | symbol, unknown> =
      type === Type.in
        ? { id: { [Op.in]: ids }, [Op.or]: [{ warehouseId: null }, { transportStatus: { [Op.notIn]: IN_STOCK } }] }
        : { id: { [Op.in]: ids }, warehouseId: source, transportStatus: { [Op.in]: IN_STOCK } };
    const n = await repo('carrier').updateWhere(values, where);
    if (n !== ids.length) throw new ApiError(ErrorCode.statusForbidden, 'inventory.movedMeanwhile', { title });

    // in/out rows: out of the source, into the target (the document's number where a ship order's would stand)
    const operator = operatorOf(e.ctx);
    const row = (c: Row, direction: number, warehouseId: number) => ({
      carrierId: c.id,
      sn: c.sn,
      name: c.name ?? null,
      carrierCodeId: c.carrierCodeId ?? null,
      direction,
      warehouseId,
      confirmTime: at,
      shipOrderNo: title,
      confirmedBy: Enums.confirmSource.hand,
      confirmedTime: at,
    });
    const inout: Row[] = [];
    for (const c of carriers) {
      if (source !== null) inout.push(row(c, Direction.outbound, source));
      if (target !== null) inout.push(row(c, Direction.inbound, target));
    }
    await repo('carrier-inout').insertMany(inout);
    const params = { order: title, from: source !== null ? await warehouseName(source) : '—', to: target !== null ? await warehouseName(target) : '—' };
    await e.repo('carrier-log').insertMany(
      carriers.map((c) => ({
        carrierId: c.id,
        event: Enums.carrierLogEvent.transportStatusChange,
        oldValue: String(c.transportStatus ?? ''),
        newValue: String(to),
        operator,
        time: at,
        remark: `Adjusted with inventory adjustment ${title}: ${params.from} → ${params.to}`,
        remarkKey: { key: 'inventory.logs.adjusted', params },
      })),
    );
    if (onMoved) {
      const perCode = new Map<number | null, number>();
      for (const c of carriers) perCode.set(num(c.carrierCodeId), (perCode.get(num(c.carrierCodeId)) ?? 0) + 1);
      const moves: StockMove[] = [];
      for (const [carrierCodeId, count] of perCode) {
        if (source !== null) moves.push({ warehouseId: source, carrierCodeId, delta: -count, direction: Direction.outbound });
        if (target !== null) moves.push({ warehouseId: target, carrierCodeId, delta: count, direction: Direction.inbound });
      }
      await onMoved(e, moves);
    }
    return carriers.map((c) => ({
      id: Number(c.id),
      warehouseId: target ?? source,
      direction: target !== null ? Direction.inbound : Direction.outbound,
      transportStatus: to,
      time: at.getTime(),
    }));
  }
}
