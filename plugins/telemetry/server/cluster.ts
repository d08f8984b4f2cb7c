/**
 * Several API instances on one database and one broker (TELEMETRY_INGEST=off with MQTT_URL,
 * docs/SERVER.md "Running on several machines"):
 *
 * - **One writer.** Every instance hears every frame and keeps its engine current (live
 *   positions answer on any instance), but only the holder of the `state` lease — a row in
 *   the database, renewed every third of its lifetime — writes what the engine derives
 *   (alert, log, in/out and state rows) and raises its events. So one reading gives one alert
 *   row however many instances run. When the holder dies, another takes the lease once it has
 *   expired (TELEMETRY_LEADER_TTL_MS, 10 s): effects derived in that gap are not written.
 * - **Events everywhere.** Every live event an instance raises (the writer's derived events,
 *   an alert processed by a user on any instance) is relayed on the broker under
 *   `rti-cluster/events/<org>`; every other instance hands it to its own subscribers.
 * - **Caches follow writes.** A master-data write or a document's carrier placement on one
 *   instance is announced under `rti-cluster/control`; every instance refreshes its fleet or
 *   places the carriers (within the 300 ms refresh delay plus a broker round trip).
 *
 * The broker must not let gateways publish or subscribe under `rti-cluster/#` (mosquitto ACL).
 */
import mqtt, { type MqttClient } from 'mqtt';
import { DataTypes, Op, type Sequelize } from 'sequelize';
import { retryingTransaction, type Migration } from '@rti/server/plugin-api';
import type { CarrierPlacement } from '@rti/ingest/state/state-engine';
import { EventBus, type LiveEvent } from './event-bus';

export const LEASE_TABLE = 'telemetry_lease';

export const leaseMigration: Migration = {
  name: 'telemetry-lease',
  async up({ queryInterface, DataTypes }) {
    await queryInterface.createTable(LEASE_TABLE, {
      name: { type: DataTypes.STRING(50), primaryKey: true },
      holder: { type: DataTypes.STRING(100), allowNull: false },
      expires_at: { type: DataTypes.BIGINT, allowNull: false },
    });
  },
};

export interface Lease {
  /** true while this instance holds the lease (checked before every write) */
  held(): boolean;
  /** one attempt to take or renew it now (tests) */
  tick(): Promise<boolean>;
  /** gives it up (another instance may take it at once) */
  stop(): Promise<void>;
}

/**
 * A lease in the database: taken when free or expired, renewed by its holder every ttl/3.
 * Held only while the last renewal is younger than the lifetime (a stalled holder stops
 * writing before another can take over). Clocks of the machines are assumed in step (NTP).
 */
export function startLease(opts: {
  sequelize: Sequelize;
  name: string;
  holder: string;
  ttlMs: number;
  log(m: string, e?: unknown): void;
  onChange?(held: boolean): void;
}): Lease {
  const { sequelize, name, holder, ttlMs } = opts;
  const model =
    sequelize.models.telemetryLease ??
    sequelize.define(
      'telemetryLease',
      {
        name: { type: DataTypes.STRING(50), primaryKey: true },
        holder: { type: DataTypes.STRING(100), allowNull: false },
        expiresAt: { type: DataTypes.BIGINT, allowNull: false },
      },
      { tableName: LEASE_TABLE, underscored: true, timestamps: false, freezeTableName: true },
    );
  let heldUntil = 0;
  let stopped = false;
  let was = false;
  const note = () => {
    const now = Date.now() < heldUntil;
    if (now !== was) {
      was = now;
      opts.onChange?.(now);
    }
  };
  const tick = async (): Promise<boolean> => {
    if (stopped) return false;
    const now = Date.now();
    const until = now + ttlMs;
    try {
      const mine = await retryingTransaction(sequelize, async (transaction) => {
        // taken when it is ours or has run out; the row lock makes one taker win
        await model.update({ holder, expiresAt: until }, { where: { name, [Op.or]: [{ holder }, { expiresAt: { [Op.lt]: now } }] }, transaction });
        const row = await model.findByPk(name, { transaction });
        if (!row) {
          await model.create({ name, holder, expiresAt: until }, { transaction });
          return true;
        }
        return row.get('holder') === holder && Number(row.get('expiresAt')) === until;
      });
      heldUntil = mine ? until : 0;
    } catch (err) {
      // a failed renewal (or two first instances creating the row at once): held only until the last good one runs out
      if (!stopped && (err as Error).name !== 'SequelizeUniqueConstraintError') opts.log('lease renewal failed', err);
    }
    note();
    return Date.now() < heldUntil;
  };
  const timer = setInterval(() => void tick(), Math.max(100, Math.floor(ttlMs / 3)));
  timer.unref();
  void tick();
  return {
    held: () => !stopped && Date.now() < heldUntil,
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (heldUntil > Date.now()) await model.update({ expiresAt: 0 }, { where: { name, holder } }).catch(() => undefined);
      heldUntil = 0;
    },
  };
}

/** Live events raised here are relayed to the other instances; theirs are delivered here. */
export class RelayedBus extends EventBus {
  relay?: (e: LiveEvent) => void;

  override publish(e: LiveEvent): void {
    super.publish(e);
    this.relay?.(e);
  }

  /** an event another instance raised: to this instance's subscribers only */
  deliver(e: LiveEvent): void {
    this.dispatch(e);
  }
}

type Control = { kind: 'refresh' } | { kind: 'place'; moves: CarrierPlacement[] };

export interface ClusterLink {
  client: MqttClient;
  /** tells the other instances (master data changed, carriers placed) */
  announce(c: Control): void;
  stop(): Promise<void>;
}

const EVENTS = 'rti-cluster/events';
const CONTROL = 'rti-cluster/control';

/** The instances' link through the broker: events one way, control messages the other. */
export function startClusterLink(opts: {
  url: string;
  username?: string;
  password?: string;
  instanceId: string;
  bus: RelayedBus;
  onControl(c: Control): void;
  log(m: string, e?: unknown): void;
}): ClusterLink {
  const from = `${opts.instanceId}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  const client = mqtt.connect(opts.url, {
    clientId: `rti-cluster-${from}`.slice(0, 100),
    username: opts.username,
    password: opts.password,
    clean: true,
    reconnectPeriod: 2000,
  });
  client.on('connect', () => client.subscribe([`${EVENTS}/+`, CONTROL], { qos: 1 }, (err) => err && opts.log('cluster link: subscribe failed', err)));
  client.on('error', (err) => opts.log('cluster link: broker error', err));
  client.on('message', (topic, payload) => {
    let m: { from?: string; event?: LiveEvent; control?: Control };
    try {
      m = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    if (!m || m.from === from) return;
    if (topic.startsWith(`${EVENTS}/`) && m.event && typeof m.event.orgId === 'number') opts.bus.deliver(m.event);
    else if (topic === CONTROL && m.control) opts.onControl(m.control);
  });
  opts.bus.relay = (event) => {
    if (client.connected) client.publish(`${EVENTS}/${event.orgId}`, JSON.stringify({ from, event }), { qos: 1 });
  };
  return {
    client,
    announce(control) {
      client.publish(CONTROL, JSON.stringify({ from, control }), { qos: 1 });
    },
    async stop() {
      opts.bus.relay = undefined;
      await client.endAsync();
    },
  };
}
