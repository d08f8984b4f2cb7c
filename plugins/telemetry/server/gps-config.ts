/**
 * GPS configuration sent to trackers (SPEC §4 config status, docs/TELEMETRY.md "GPS
 * configuration"): `/device-gps/configure {id | ids}` publishes each tracker's report cycle,
 * sensor cycles, locate model and thresholds on its downlink topic `rti/<org>/gps/<sn>/config`
 * (QoS 1, through the embedded broker or the external one) and moves configStatus to
 * configuring 10; the answer on `…/config/ack` (relayed by a master gateway or the vendor
 * bridge) moves it to effective 20 when the applied values are the ones sent, or to error 30
 * with the reason kept in `configError` — a refusal, values that were not sent, or no answer
 * within GPS_CONFIG_TIMEOUT_MS. Each send is a row of `gps_config_request`; a new send
 * supersedes the tracker's unanswered one. Changing a configured value on the device row sets
 * the status back to pending 0 (saved, not sent).
 */
import { randomBytes } from 'node:crypto';
import { DataTypes, Op, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import { Enums } from '@rti/metadata';
import { ApiError, ErrorCode, readIds, type HookEvent, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { gpsConfigTopic } from '@rti/ingest';
import type { EventBus } from './event-bus';

export const GPS_RESOURCE = 'device-gps';
/** the device row's values a tracker is configured with (SPEC §3 GPS device) */
export const GPS_CONFIG_FIELDS = [
  'reportCycle',
  'sensorSampleCycle',
  'sensorRecordCycle',
  'sensorReportCycle',
  'locateModel',
  'highTempThreshold',
  'lowTempThreshold',
  'shakeThreshold',
  'highHumidityThreshold',
  'lowHumidityThreshold',
] as const;
export type GpsConfig = Record<(typeof GPS_CONFIG_FIELDS)[number], number | null>;

export const CONFIG_REQUEST_TABLE = 'gps_config_request';
/** trackers configured by one call */
export const CONFIGURE_MAX = 500;
const REASON_MAX = 500;

export type RequestState = 'sent' | 'applied' | 'refused' | 'mismatch' | 'timeout' | 'superseded' | 'unsent';

export const requestColumns = {
  id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
  requestId: { type: DataTypes.STRING(32), allowNull: false, unique: true },
  orgId: { type: DataTypes.INTEGER, allowNull: false },
  deviceId: { type: DataTypes.INTEGER, allowNull: false },
  sn: { type: DataTypes.STRING(64), allowNull: false },
  config: { type: DataTypes.TEXT, allowNull: false },
  state: { type: DataTypes.STRING(16), allowNull: false },
  reason: { type: DataTypes.STRING(REASON_MAX), allowNull: true },
  sentAt: { type: DataTypes.BIGINT, allowNull: false },
  answeredAt: { type: DataTypes.BIGINT, allowNull: true },
  createdAt: { type: DataTypes.DATE, allowNull: false },
  updatedAt: { type: DataTypes.DATE, allowNull: false },
};

interface RequestRow {
  id: number;
  requestId: string;
  orgId: number;
  deviceId: number;
  sn: string;
  config: string;
  state: RequestState;
  reason: string | null;
  sentAt: number;
  answeredAt: number | null;
}

type RequestModel = ModelStatic<Model<RequestRow, Partial<RequestRow>>>;
const model = (sequelize: Sequelize): RequestModel =>
  (sequelize.models.GpsConfigRequest ??
    sequelize.define('GpsConfigRequest', requestColumns, { tableName: CONFIG_REQUEST_TABLE, freezeTableName: true, timestamps: true })) as RequestModel;

export const configMigration = {
  name: '2026-11-27-gps-config-request',
  async up({ queryInterface }: { queryInterface: import('sequelize').QueryInterface }) {
    await queryInterface.createTable(CONFIG_REQUEST_TABLE, requestColumns);
    await queryInterface.addIndex(CONFIG_REQUEST_TABLE, ['state', 'sentAt'], { name: `ix_${CONFIG_REQUEST_TABLE}_state` });
    await queryInterface.addIndex(CONFIG_REQUEST_TABLE, ['deviceId'], { name: `ix_${CONFIG_REQUEST_TABLE}_device` });
  },
  async down({ queryInterface }: { queryInterface: import('sequelize').QueryInterface }) {
    await queryInterface.dropTable(CONFIG_REQUEST_TABLE);
  },
};

export interface Downlink {
  publish(topic: string, payload: string): Promise<void>;
}

export interface ConfigAck {
  orgId: number;
  orgCode: string;
  sn: string;
  payload: Buffer;
}

export interface GpsConfigDeps {
  /** the broker the server publishes on; undefined while ingest is starting or off */
  downlink: () => Downlink | undefined;
  /** an organisation's code (topics name organisations by it) */
  orgCode: (orgId: number) => string | undefined;
  bus: EventBus;
  timeoutMs: number;
}

const STATUS = Enums.gpsConfigStatus;

/** a reason as the server's catalogue says it (telemetry.gpsConfig.*), rendered per reader */
interface Reason {
  key: string;
  params: Record<string, unknown>;
}
const because = (name: string, params: Record<string, unknown> = {}): Reason => ({ key: `telemetry.gpsConfig.${name}`, params });

/** A device row's configuration as sent: numbers (decimals arrive as strings from some drivers). */
export function configOf(row: Record<string, unknown>): GpsConfig {
  const out = {} as GpsConfig;
  for (const f of GPS_CONFIG_FIELDS) {
    const v = row[f];
    out[f] = v === null || v === undefined || v === '' ? null : Number(v);
  }
  return out;
}

/** Why applied values are not the ones sent, or null when they are. */
export function mismatch(sent: GpsConfig, applied: unknown): string | null {
  if (!applied || typeof applied !== 'object' || Array.isArray(applied)) return 'no applied values';
  const got = applied as Record<string, unknown>;
  const wrong: string[] = [];
  for (const key of Object.keys(got)) if (!(GPS_CONFIG_FIELDS as readonly string[]).includes(key)) wrong.push(`${key.slice(0, 40)} (not sent)`);
  for (const f of GPS_CONFIG_FIELDS) {
    const want = sent[f];
    const v = got[f];
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : v === null ? null : NaN;
    const same = want === null ? n === null || v === undefined : typeof n === 'number' && Math.abs(n - want) < 1e-9;
    if (!same) wrong.push(`${f} ${v === undefined ? 'missing' : JSON.stringify(v).slice(0, 20)} (sent ${want})`);
  }
  return wrong.length ? wrong.join(', ') : null;
}

export function installGpsConfig(ctx: PluginServerContext, deps: GpsConfigDeps): { onAck(ack: ConfigAck): Promise<void> } {
  const requests = () => model(ctx.db);
  ctx.addMigration(configMigration);

  /**
   * Moves the device row and tells the organisation's consoles. The reason is kept as a text
   * key and values (`configErrorKey`): every read renders it in the reader's language.
   */
  const setDevice = async (orgId: number, deviceId: number, configStatus: number, reason: Reason | null) => {
    const configError = reason ? ctx.t('en-US', reason.key, reason.params).slice(0, REASON_MAX) : null;
    await ctx.repo(GPS_RESOURCE, ctx.systemContext(orgId)).updateWhere({ configStatus, configError, configErrorKey: reason }, { id: deviceId });
    // GPS devices are not bound to a warehouse: every member's list follows
    deps.bus.publish({ type: 'gps-config', orgId, warehouseId: null, orgWide: true, data: { id: deviceId, configStatus } });
  };

  /** Ends a sent request once (of an answer and the time-out, one wins), then the device row. */
  const finish = async (r: RequestRow, state: RequestState, reason: Reason | null) => {
    const text = reason ? ctx.t('en-US', reason.key, reason.params).slice(0, REASON_MAX) : null;
    const [n] = await requests().update({ state, reason: text, answeredAt: Date.now() }, { where: { id: r.id, state: 'sent' } });
    if (n !== 1) return;
    await setDevice(r.orgId, r.deviceId, state === 'applied' ? STATUS.effective : STATUS.notEffective, state === 'applied' ? null : reason);
  };

  const configure = async (call: RequestContext, ids: number[]) => {
    const rows = (await ctx.repo(GPS_RESOURCE, call).findAll({ where: { id: { [Op.in]: ids } }, raw: true })) as unknown as Array<Record<string, unknown>>;
    // all or nothing: one id outside the caller's scope refuses the call (no existence leak)
    if (rows.length !== ids.length) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
    const orgId = call.orgId!;
    const code = deps.orgCode(orgId);
    const link = deps.downlink();
    const results: Array<{ id: number; sn: string; requestId: string; sent: boolean }> = [];
    for (const row of rows) {
      const id = Number(row.id);
      const sn = String(row.sn);
      const config = configOf(row);
      const requestId = randomBytes(12).toString('base64url');
      const now = Date.now();
      // the tracker's unanswered send is superseded: its late answer no longer counts
      await requests().update({ state: 'superseded', answeredAt: now }, { where: { deviceId: id, orgId, state: 'sent' } });
      const unsent = !link || !code ? because('noBroker') : null;
      await requests().create({
        requestId,
        orgId,
        deviceId: id,
        sn,
        config: JSON.stringify(config),
        state: unsent ? 'unsent' : 'sent',
        reason: unsent ? ctx.t('en-US', unsent.key) : null,
        sentAt: now,
        answeredAt: unsent ? now : null,
      });
      if (unsent) {
        await setDevice(orgId, id, STATUS.notEffective, unsent);
        results.push({ id, sn, requestId, sent: false });
        continue;
      }
      await setDevice(orgId, id, STATUS.configuring, null);
      const payload = JSON.stringify({ requestId, sn, time: now, config });
      try {
        await link!.publish(gpsConfigTopic(code!, sn), payload);
        results.push({ id, sn, requestId, sent: true });
      } catch (err) {
        ctx.log(`sending the configuration of ${sn} failed`, err);
        const r = (await requests().findOne({ where: { requestId }, raw: true })) as RequestRow | null;
        if (r) await finish(r, 'unsent', because('sendFailed'));
        results.push({ id, sn, requestId, sent: false });
      }
    }
    return { sent: results.filter((r) => r.sent).length, devices: results };
  };

  ctx.addCall({
    path: '/device-gps/configure',
    async handler({ body, ctx: call }) {
      const ids = readIds(body, 'ids', { max: CONFIGURE_MAX }) ?? readIds(body, 'id', { required: true, max: 1 })!;
      return configure(call, ids);
    },
  });

  // a changed configured value is saved, not yet sent: pending until the next configure
  // (and an answer to what was sent before no longer counts)
  ctx.hooks.before('update', GPS_RESOURCE, async (e: HookEvent) => {
    if (!e.data || !e.previous) return;
    const before = configOf(e.previous);
    const after = configOf({ ...e.previous, ...e.data });
    if (!GPS_CONFIG_FIELDS.some((f) => before[f] !== after[f])) return;
    Object.assign(e.data, { configStatus: STATUS.pending, configError: null, configErrorKey: null });
    await requests().update(
      { state: 'superseded', answeredAt: Date.now() },
      { where: { deviceId: Number(e.previous.id), state: 'sent' }, transaction: e.transaction },
    );
  });

  // unanswered sends end as errors; one instance of the cluster sweeps per period
  const sweepMs = Math.max(50, Math.min(15_000, Math.floor(deps.timeoutMs / 4)));
  ctx.jobs.every(
    'gps-config-timeout',
    sweepMs,
    async () => {
      const late = (await requests().findAll({
        where: { state: 'sent', sentAt: { [Op.lt]: Date.now() - deps.timeoutMs } },
        limit: 1000,
        raw: true,
      })) as unknown as RequestRow[];
      for (const r of late) await finish(r, 'timeout', because('timeout', { seconds: Math.round(deps.timeoutMs / 1000) }));
    },
    { once: true },
  );

  return {
    async onAck(ack) {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(ack.payload.toString('utf8')) as Record<string, unknown>;
      } catch {
        ctx.log(`configuration answer of ${ack.sn} is not JSON: ignored`);
        return;
      }
      const requestId = typeof body?.requestId === 'string' ? body.requestId.slice(0, 32) : '';
      const r = requestId ? ((await requests().findOne({ where: { requestId, orgId: ack.orgId, sn: ack.sn }, raw: true })) as RequestRow | null) : null;
      if (!r || r.state !== 'sent') {
        ctx.log(`configuration answer of ${ack.sn} for ${requestId ? `request ${requestId}` : 'no request'} that is not awaited: ignored`);
        return;
      }
      if (body.status === 'refused') {
        const why = typeof body.reason === 'string' && body.reason.trim() ? body.reason.trim().slice(0, 200) : '-';
        await finish(r, 'refused', because('refused', { reason: why }));
        return;
      }
      const wrong =
        body.status === 'applied' ? mismatch(JSON.parse(r.config) as GpsConfig, body.applied) : `status ${JSON.stringify(body.status ?? null).slice(0, 20)}`;
      if (wrong) await finish(r, 'mismatch', because('mismatch', { detail: wrong }));
      else await finish(r, 'applied', null);
    },
  };
}
