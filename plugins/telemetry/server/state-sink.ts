/**
 * Where rule effects land: queued as they come (the engine runs synchronously inside the
 * ingest pipeline) and written by flush() in one transaction — alert, log and in/out rows,
 * device and carrier columns for the subjects that changed, the state table — then pushed to
 * live subscribers. Column writes are coalesced per subject per flush, never per reading.
 * A device pass that repeats the move a document booked (the carrier's last in/out row, same
 * direction and warehouse, no device confirmation yet) confirms that row instead of adding one.
 */
import { Enums } from '@rti/metadata';
import type { Database } from '@rti/server';
import type { Effect, InOutEffect } from '@rti/ingest/state/effects';
import type { StateDump } from '@rti/ingest/state/state-engine';
import { Op, col, fn, type Model, type ModelStatic, type Transaction } from 'sequelize';
import { alertResource, ALERT_STATUS } from './alert-kinds';
import type { EventBus } from './event-bus';
import { saveStates } from './state-table';

const LOG_RESOURCE = { carrier: ['carrier-log', 'carrierId'], beacon: ['device-beacon-log', 'beaconId'], gps: ['device-gps-log', 'gpsId'] } as const;
const DEVICE_RESOURCE = {
  beacon: 'device-beacon',
  gps: 'device-gps',
  'slave-gateway': 'device-slave-gateway',
  'master-gateway': 'device-master-gateway',
} as const;

/** carrier-inout confirmedBy (enum confirmSource) of what saw a pass */
const CONFIRMED_BY = { gate: Enums.confirmSource.beacon, gps: Enums.confirmSource.gps } as const;
/** carriers per IN (…) list */
const CHUNK = 1000;

/**
 * The carriers' last in/out rows (one per carrier) that a document wrote (a ship order's
 * release or receipt: it names the order) and no device confirmed yet. A device pass in the
 * same direction at the same warehouse is that move seen at the gate: it confirms the row
 * instead of adding a second one for the trip (issue 17 item 4). Set-based: two statements
 * per thousand carriers of the flush.
 */
async function unconfirmedDocumentRows(model: ModelStatic<Model>, effects: Effect[], transaction: Transaction): Promise<Map<number, Record<string, unknown>>> {
  const found = new Map<number, Record<string, unknown>>();
  const ids = [...new Set(effects.flatMap((e) => (e.type === 'inout' && e.via ? [e.carrierId] : [])))];
  const carrierColumn = model.getAttributes().carrierId?.field ?? 'carrierId';
  for (let i = 0; i < ids.length; i += CHUNK) {
    const last = (await model.findAll({
      attributes: [[fn('MAX', col('id')), 'id']],
      where: { carrierId: { [Op.in]: ids.slice(i, i + CHUNK) } },
      group: [col(carrierColumn)],
      raw: true,
      transaction,
    })) as unknown as Array<{ id: number }>;
    if (!last.length) continue;
    const rows = (await model.findAll({
      where: { id: { [Op.in]: last.map((r) => r.id) }, shipOrderNo: { [Op.ne]: null }, confirmedBy: null },
      raw: true,
      transaction,
    })) as unknown as Array<Record<string, unknown>>;
    for (const r of rows) found.set(Number(r.carrierId), r);
  }
  return found;
}

/** alert texts in the plugin's catalogue (server/messages/<lang>.json) */
export const ALERT_TEXT_PREFIX = 'telemetry.alerts';

/** lastReportTime alone is rewritten at most this often per device (status/battery changes go at once) */
const LAST_REPORT_WRITE_MS = 60_000;

export class StateSink {
  private queue: Effect[] = [];
  /** what the device row holds, to skip UPDATEs that would only move lastReportTime a little */
  private readonly written = new Map<string, { status: number; battery: number | null; time: number }>();
  readonly counts = { alerts: 0, cleared: 0, logs: 0, inouts: 0, confirmed: 0, devices: 0, carriers: 0, flushes: 0 };
  /** other plugins' listeners to the in/out passes of each flush (telemetry service `onInOut`) */
  private readonly inOutListeners = new Set<(passes: InOutEffect[]) => Promise<void> | void>();

  constructor(
    private readonly db: Database,
    private readonly bus: EventBus,
    private readonly log: (m: string, e?: unknown) => void,
  ) {}

  push = (e: Effect): void => {
    this.queue.push(e);
  };

  /**
   * Called after each flush has committed, with that flush's in/out passes (every
   * organisation, at most one call per flush): a listener sees passes by the thousand at once
   * and should work on them set-based. It runs after the flush, so a slow or failing listener
   * delays no reading and loses no row.
   */
  onInOut(fn: (passes: InOutEffect[]) => Promise<void> | void): () => void {
    this.inOutListeners.add(fn);
    return () => void this.inOutListeners.delete(fn);
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Writes what is queued plus the engine's flushed states; publishes after commit. */
  async flush(dump: StateDump): Promise<void> {
    const effects = this.queue;
    this.queue = [];
    if (!effects.length && !dump.devices.length && !dump.carriers.length) return;
    const live: Array<Parameters<EventBus['publish']>[0]> = [];
    // ingest writes the states of every organisation's devices (ids from the device directory)
    // eslint-disable-next-line rti/no-raw-models -- platform-wide by design, no caller to scope by
    const m = this.db.models;
    await this.db.sequelize.transaction(async (transaction) => {
      const documentRows = await unconfirmedDocumentRows(m['carrier-inout'], effects, transaction);
      /** document rows a device pass confirms, per (source, time): one UPDATE per group */
      const confirms = new Map<string, { values: { confirmedBy: number; confirmedTime: Date }; ids: number[] }>();
      const devices = new Map<string, Extract<Effect, { type: 'device' }>>();
      const carriers = new Map<number, Extract<Effect, { type: 'carrier' }>>();
      for (const e of effects) {
        switch (e.type) {
          case 'alert': {
            const r = alertResource(e.kind);
            const values: Record<string, unknown> = {
              orgId: e.orgId,
              [r.idField]: e.subjectId,
              [r.snField]: e.sn,
              [r.timeField]: new Date(e.time),
              warehouseId: e.warehouseId,
              message: e.message.slice(0, 500),
              status: ALERT_STATUS.unhandled,
              rawData: e.raw ?? null,
            };
            // what it says as a key and values: rendered in each reader's language when read (metadata textFrom)
            if (e.text) values.messageKey = { key: `${ALERT_TEXT_PREFIX}.${e.text.id}`, params: e.text.params ?? {} };
            if (e.kind === 'gps') {
              values.code = e.code;
              values.dataType = 20;
            } else values.reason = e.reason;
            const row = await m[r.resource].create(values, { transaction });
            this.counts.alerts++;
            live.push({
              type: 'alert',
              orgId: e.orgId,
              warehouseId: e.warehouseId,
              data: { category: r.category, resource: r.resource, ...row.get({ plain: true }) },
            });
            break;
          }
          case 'alert-cleared': {
            const r = alertResource(e.kind);
            const where: Record<string, unknown> = { orgId: e.orgId, [r.idField]: e.subjectId, clearedAt: null };
            if (e.kind === 'gps') where.code = e.code;
            else where.reason = e.reason;
            const [n] = await m[r.resource].update({ clearedAt: new Date(e.time) }, { where: where as never, transaction });
            this.counts.cleared += n;
            if (n)
              live.push({
                type: 'alert-cleared',
                orgId: e.orgId,
                warehouseId: null,
                data: { category: r.category, subjectId: e.subjectId, reason: e.reason, code: e.code, time: new Date(e.time).toISOString() },
              });
            break;
          }
          case 'log': {
            const [resource, idField] = LOG_RESOURCE[e.kind];
            const values: Record<string, unknown> = {
              orgId: e.orgId,
              [idField]: e.subjectId,
              event: e.event,
              oldValue: e.oldValue ?? null,
              newValue: e.newValue ?? null,
              operator: 'system',
              time: new Date(e.time),
              remark: e.remark?.slice(0, 500) ?? null,
            };
            if (e.kind !== 'carrier') values.carrierId = e.carrierId ?? null;
            // the remark says what the alert says: rendered in the reader's language when read (metadata textFrom)
            if (e.text) values.remarkKey = { key: `${ALERT_TEXT_PREFIX}.${e.text.id}`, params: e.text.params ?? {} };
            await m[resource].create(values, { transaction });
            this.counts.logs++;
            break;
          }
          case 'inout': {
            const confirmedBy = e.via ? CONFIRMED_BY[e.via] : null;
            const booked = documentRows.get(e.carrierId);
            if (booked && confirmedBy && Number(booked.direction) === e.direction && Number(booked.warehouseId) === e.warehouseId) {
              // the document booked this move already: the device confirms its row, never adds a second
              documentRows.delete(e.carrierId);
              const key = `${confirmedBy}/${e.time}`;
              let group = confirms.get(key);
              if (!group) confirms.set(key, (group = { values: { confirmedBy, confirmedTime: new Date(e.time) }, ids: [] }));
              group.ids.push(Number(booked.id));
              live.push({ type: 'inout', orgId: e.orgId, warehouseId: e.warehouseId, data: { ...booked, ...group.values } });
              break;
            }
            documentRows.delete(e.carrierId);
            const row = await m['carrier-inout'].create(
              {
                orgId: e.orgId,
                carrierId: e.carrierId,
                sn: e.sn,
                name: e.name,
                carrierCodeId: e.carrierCodeId,
                direction: e.direction,
                warehouseId: e.warehouseId,
                confirmTime: new Date(e.time),
                confirmedBy,
                confirmedTime: confirmedBy ? new Date(e.time) : null,
              },
              { transaction },
            );
            this.counts.inouts++;
            live.push({ type: 'inout', orgId: e.orgId, warehouseId: e.warehouseId, data: row.get({ plain: true }) });
            break;
          }
          case 'fence':
            await m['fence-log'].create(
              { orgId: e.orgId, fenceId: e.fenceId, deviceType: e.deviceType, deviceSn: e.deviceSn, action: e.action, time: new Date(e.time) },
              { transaction },
            );
            break;
          case 'device':
            devices.set(`${e.kind}/${e.id}`, e);
            break;
          case 'carrier':
            carriers.set(e.id, e);
            break;
        }
      }
      for (const { values, ids } of confirms.values()) {
        for (let i = 0; i < ids.length; i += CHUNK) {
          const [n] = await m['carrier-inout'].update(values, { where: { id: { [Op.in]: ids.slice(i, i + CHUNK) }, confirmedBy: null }, transaction });
          this.counts.confirmed += n;
        }
      }
      await this.writeDevices([...devices.values()], transaction);
      await this.writeCarriers([...carriers.values()], transaction);
      await saveStates(this.db.sequelize, dump, transaction);
      for (const d of devices.values())
        live.push({ type: 'device', orgId: d.orgId, warehouseId: d.warehouseId, data: { ...d, lastReportTime: new Date(d.lastReportTime).toISOString() } });
      for (const c of carriers.values())
        live.push({
          type: 'carrier',
          orgId: c.orgId,
          warehouseId: c.warehouseId,
          data: { id: c.id, sn: c.sn, warehouseId: c.warehouseId, transportStatus: c.transportStatus, longitude: c.longitude, latitude: c.latitude },
        });
    });
    this.counts.flushes++;
    for (const e of live) {
      try {
        this.bus.publish(e);
      } catch (err) {
        this.log('[telemetry] live event failed', err);
      }
    }
    const passes = effects.filter((e): e is InOutEffect => e.type === 'inout');
    if (passes.length) {
      for (const fn of this.inOutListeners) {
        try {
          await fn(passes);
        } catch (err) {
          this.log('[telemetry] in/out listener failed', err);
        }
      }
    }
  }

  private async writeDevices(list: Array<Extract<Effect, { type: 'device' }>>, transaction: Transaction): Promise<void> {
    for (const d of list) {
      const key = `${d.kind}/${d.id}`;
      const battery = (d.kind === 'beacon' || d.kind === 'gps') && d.battery !== null ? Math.round(d.battery) : null;
      const w = this.written.get(key);
      if (w && w.status === d.status && w.battery === battery && d.lastReportTime - w.time < LAST_REPORT_WRITE_MS) continue;
      const values: Record<string, unknown> = { status: d.status, lastReportTime: new Date(d.lastReportTime) };
      if (battery !== null) values.battery = battery;
      // eslint-disable-next-line rti/no-raw-models -- ingest: every organisation's devices
      await this.db.models[DEVICE_RESOURCE[d.kind]].update(values, { where: { id: d.id }, transaction });
      this.written.set(key, { status: d.status, battery, time: d.lastReportTime });
      this.counts.devices++;
    }
  }

  private async writeCarriers(list: Array<Extract<Effect, { type: 'carrier' }>>, transaction: Transaction): Promise<void> {
    for (const c of list) {
      const values: Record<string, unknown> = { warehouseId: c.warehouseId, transportStatus: c.transportStatus };
      if (c.inboundWarehouseId) Object.assign(values, { inboundWarehouseId: c.inboundWarehouseId, inboundTime: new Date(c.inboundTime!) });
      if (c.outboundWarehouseId) Object.assign(values, { outboundWarehouseId: c.outboundWarehouseId, outboundTime: new Date(c.outboundTime!) });
      // eslint-disable-next-line rti/no-raw-models -- ingest: every organisation's carriers
      await this.db.models.carrier.update(values, { where: { id: c.id, status: { [Op.ne]: 30 } }, transaction });
      this.counts.carriers++;
    }
  }
}
