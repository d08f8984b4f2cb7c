/**
 * Carrier ↔ device binding (SPEC §3/§4): a carrier's beaconId/gpsId is the one source; the
 * device's read-only carrierId follows it. A device bound to another carrier is refused,
 * a bound device cannot be deleted, and every register, bind/unbind and status change
 * writes carrier-log / device-log events in the write's own transaction.
 *
 * Imports create carriers and devices in chunks of up to 1,000 rows: the chunk handlers
 * below do for a whole chunk what the per-row create hooks do for one row — the bound-device
 * check in one query per device kind (against the database and the chunk's earlier rows),
 * the logs in one insert, the devices' carrierId in one update — and the per-row create
 * hooks stand aside for those chunks' transactions.
 */
import { Op, type Transaction } from 'sequelize';
import {
  ApiError,
  ErrorCode,
  type HookEvent,
  type ImportChunkEvent,
  type ImportChunkHandler,
  type PluginServerContext,
  type RequestContext,
} from '@rti/server/plugin-api';
import { appendLog, appendLogs, orgRepo, str } from './helpers';

type ChunkHandler = ImportChunkHandler;
type ChunkEvent = ImportChunkEvent;

/** SPEC §4 carrier log events. */
export const CarrierEvent = { register: 10, bindBeacon: 20, unbindBeacon: 30, bindGps: 40, unbindGps: 50, status: 60, transportStatus: 70 } as const;
/** SPEC §4 device log events. */
export const DeviceEvent = { register: 10, bind: 20, unbind: 30, status: 40, useStatus: 50 } as const;

interface DeviceKind {
  /** carrier field holding the device id */
  field: 'beaconId' | 'gpsId';
  resource: 'device-beacon' | 'device-gps';
  log: 'device-beacon-log' | 'device-gps-log';
  /** the device id column of its log */
  logField: 'beaconId' | 'gpsId';
  bind: number;
  unbind: number;
  boundMessage: string;
  /** SPEC §8 carrier import reason for "bound to another carrier" */
  importCode: number;
}

const KINDS: DeviceKind[] = [
  {
    field: 'beaconId',
    resource: 'device-beacon',
    log: 'device-beacon-log',
    logField: 'beaconId',
    bind: CarrierEvent.bindBeacon,
    unbind: CarrierEvent.unbindBeacon,
    boundMessage: 'rules.beaconBoundToOther',
    importCode: 80,
  },
  {
    field: 'gpsId',
    resource: 'device-gps',
    log: 'device-gps-log',
    logField: 'gpsId',
    bind: CarrierEvent.bindGps,
    unbind: CarrierEvent.unbindGps,
    boundMessage: 'rules.gpsBoundToOther',
    importCode: 100,
  },
];

const changed = (a: unknown, b: unknown) => str(a) !== str(b);
const idOf = (v: unknown): number | null => (v === undefined || v === null || v === '' ? null : Number(v));

export function installDeviceBinding(ctx: PluginServerContext): void {
  const carrierSn = async (call: RequestContext, id: unknown, transaction: Transaction): Promise<string> => {
    const repo = orgRepo(ctx, 'carrier', call);
    const row = await repo.findOne({ id: Number(id) }, { transaction });
    return row ? String(row.get('sn')) : `#${id}`;
  };

  /** Refuses a device already bound to a carrier other than `selfId`. */
  async function checkFree(
    kind: DeviceKind,
    call: RequestContext,
    deviceId: number,
    selfId: number | null,
    transaction: Transaction,
    carriersOnly = false,
  ): Promise<void> {
    const devices = orgRepo(ctx, kind.resource, call);
    const device = await devices.findOne({ id: deviceId }, { transaction });
    if (!device) return; // the repository's ref check answers a missing device
    const carriers = orgRepo(ctx, 'carrier', call);
    const other = await carriers.findOne({ [kind.field]: deviceId, ...(selfId !== null ? { id: { [Op.ne]: selfId } } : {}) }, { transaction });
    const boundTo = other ? other.get('id') : carriersOnly ? null : device.get('carrierId');
    if (boundTo !== null && boundTo !== undefined && Number(boundTo) !== selfId) {
      throw new ApiError(ErrorCode.duplicate, kind.boundMessage, {
        sn: device.get('sn'),
        carrier: await carrierSn(call, boundTo, transaction),
        importCode: kind.importCode,
        importColumn: kind.field,
      });
    }
  }

  /** Points the device at the carrier (or frees it) and writes both logs. */
  async function setDevice(
    kind: DeviceKind,
    call: RequestContext,
    deviceId: number,
    carrierId: number,
    bind: boolean,
    transaction: Transaction,
  ): Promise<void> {
    // Bulk writers check every row before inserting them all: two new rows of one batch may
    // name the same device, which only shows once both exist.
    if (bind) await checkFree(kind, call, deviceId, carrierId, transaction, true);
    const devices = orgRepo(ctx, kind.resource, call);
    await devices.updateWhere({ carrierId: bind ? carrierId : null }, { id: deviceId }, { transaction });
    await appendLog(ctx, 'carrier-log', call, { carrierId, event: bind ? kind.bind : kind.unbind, [kind.field]: deviceId }, transaction);
    await appendLog(ctx, kind.log, call, { [kind.logField]: deviceId, carrierId, event: bind ? DeviceEvent.bind : DeviceEvent.unbind }, transaction);
  }

  /** Transactions of import chunks whose rows the chunk handlers below take care of. */
  const chunked = new WeakSet<Transaction>();

  const beforeWrite = async (e: HookEvent) => {
    if (chunked.has(e.transaction)) return;
    const data = e.data ?? {};
    const selfId = e.previous ? Number(e.previous.id) : null;
    for (const kind of KINDS) {
      const next = data[kind.field];
      if (next === undefined || next === null || (e.previous && !changed(e.previous[kind.field], next))) continue;
      await checkFree(kind, e.ctx, Number(next), selfId, e.transaction);
    }
  };
  ctx.hooks.before('create', 'carrier', beforeWrite);
  ctx.hooks.before('update', 'carrier', beforeWrite);

  ctx.hooks.after('create', 'carrier', async (e) => {
    if (chunked.has(e.transaction)) return;
    const row = e.row!;
    await appendLog(ctx, 'carrier-log', e.ctx, { carrierId: row.id, event: CarrierEvent.register, newValue: str(row.status) }, e.transaction);
    for (const kind of KINDS) if (row[kind.field]) await setDevice(kind, e.ctx, Number(row[kind.field]), row.id as number, true, e.transaction);
  });

  ctx.hooks.after('update', 'carrier', async (e) => {
    const row = e.row!;
    const prev = e.previous!;
    const id = row.id as number;
    for (const kind of KINDS) {
      if (!changed(prev[kind.field], row[kind.field])) continue;
      if (prev[kind.field]) await setDevice(kind, e.ctx, Number(prev[kind.field]), id, false, e.transaction);
      if (row[kind.field]) await setDevice(kind, e.ctx, Number(row[kind.field]), id, true, e.transaction);
    }
    if (changed(prev.status, row.status)) {
      await appendLog(
        ctx,
        'carrier-log',
        e.ctx,
        { carrierId: id, event: CarrierEvent.status, oldValue: str(prev.status), newValue: str(row.status) },
        e.transaction,
      );
    }
    if (changed(prev.transportStatus, row.transportStatus)) {
      await appendLog(
        ctx,
        'carrier-log',
        e.ctx,
        { carrierId: id, event: CarrierEvent.transportStatus, oldValue: str(prev.transportStatus), newValue: str(row.transportStatus) },
        e.transaction,
      );
    }
  });

  // A deleted carrier frees its devices (the devices keep their history in the device logs).
  ctx.hooks.after('delete', 'carrier', async (e) => {
    const row = e.row!;
    for (const kind of KINDS) if (row[kind.field]) await setDevice(kind, e.ctx, Number(row[kind.field]), row.id as number, false, e.transaction);
  });

  /** Device ids of a kind that a carrier holds or that point at a carrier, among `ids`. */
  const boundAmong = async (kind: DeviceKind, e: ChunkEvent, ids: number[]) => {
    const devices = orgRepo(ctx, kind.resource, e.ctx);
    const carriers = orgRepo(ctx, 'carrier', e.ctx);
    const found = await devices.rows({ id: { [Op.in]: ids } }, { attributes: ['id', 'carrierId'], transaction: e.transaction });
    const holders = await carriers.rows({ [kind.field]: { [Op.in]: ids } }, { attributes: [kind.field], transaction: e.transaction });
    const bound = new Set<number>();
    for (const d of found) if (idOf(d.carrierId) !== null) bound.add(Number(d.id));
    for (const c of holders) bound.add(Number(c[kind.field]));
    return bound;
  };

  ctx.imports.validator('carrier', {
    // 80 / 100: a device bound in the database, or claimed by an earlier accepted row of the chunk.
    async beforeCreateMany(e) {
      chunked.add(e.transaction);
      const bound = new Map<DeviceKind, Set<number>>();
      for (const kind of KINDS) {
        const ids = [...new Set(e.rows.map((r) => idOf(r.values[kind.field])).filter((x): x is number => x !== null))];
        bound.set(kind, ids.length ? await boundAmong(kind, e, ids) : new Set());
      }
      return e.rows.map(({ values }) => {
        const refused = KINDS.find((kind) => {
          const id = idOf(values[kind.field]);
          return id !== null && bound.get(kind)!.has(id);
        });
        // the reason names the device column and the file's value (issue 23 item 7)
        if (refused) return { code: refused.importCode, column: refused.field };
        for (const kind of KINDS) {
          const id = idOf(values[kind.field]);
          if (id !== null) bound.get(kind)!.add(id);
        }
        return null;
      });
    },
    async afterCreateMany(e) {
      const carrierLogs: Array<Record<string, unknown>> = [];
      for (const { values: row } of e.rows) carrierLogs.push({ carrierId: row.id, event: CarrierEvent.register, newValue: str(row.status) });
      for (const kind of KINDS) {
        const pairs = e.rows
          .map(({ values: row }) => [idOf(row[kind.field]), Number(row.id)] as const)
          .filter((p): p is readonly [number, number] => p[0] !== null);
        if (!pairs.length) continue;
        const devices = orgRepo(ctx, kind.resource, e.ctx);
        // One UPDATE … SET carrier_id = CASE id WHEN … for the chunk (ids are integers).
        await devices.updateWhere({ carrierId: devices.caseOf('id', pairs) }, { id: { [Op.in]: pairs.map((p) => p[0]) } }, { transaction: e.transaction });
        for (const [device, carrier] of pairs) carrierLogs.push({ carrierId: carrier, event: kind.bind, [kind.field]: device });
        await appendLogs(
          ctx,
          kind.log,
          e.ctx,
          pairs.map(([device, carrier]) => ({ [kind.logField]: device, carrierId: carrier, event: DeviceEvent.bind })),
          e.transaction,
        );
      }
      await appendLogs(ctx, 'carrier-log', e.ctx, carrierLogs, e.transaction);
    },
  });

  for (const kind of KINDS) {
    ctx.imports.validator(kind.resource, {
      beforeCreateMany: (e) => void chunked.add(e.transaction),
      afterCreateMany: (e) =>
        appendLogs(
          ctx,
          kind.log,
          e.ctx,
          e.rows.map(({ values: row }) => ({ [kind.logField]: row.id, event: DeviceEvent.register, newValue: str(row.useStatus) })),
          e.transaction,
        ),
    });
    ctx.hooks.after('create', kind.resource, async (e) => {
      if (chunked.has(e.transaction)) return;
      await appendLog(ctx, kind.log, e.ctx, { [kind.logField]: e.row!.id, event: DeviceEvent.register, newValue: str(e.row!.useStatus) }, e.transaction);
    });
    ctx.hooks.after('update', kind.resource, async (e) => {
      const row = e.row!;
      const prev = e.previous!;
      for (const [field, event] of [
        ['status', DeviceEvent.status],
        ['useStatus', DeviceEvent.useStatus],
      ] as const) {
        if (!changed(prev[field], row[field])) continue;
        await appendLog(
          ctx,
          kind.log,
          e.ctx,
          { [kind.logField]: row.id, carrierId: row.carrierId ?? null, event, oldValue: str(prev[field]), newValue: str(row[field]) },
          e.transaction,
        );
      }
    });
    ctx.hooks.before('delete', kind.resource, async (e) => {
      const row = e.row!;
      if (row.carrierId === null || row.carrierId === undefined) return;
      throw new ApiError(ErrorCode.statusForbidden, 'rules.deviceBoundNoDelete', { sn: row.sn, carrier: await carrierSn(e.ctx, row.carrierId, e.transaction) });
    });
  }
}
