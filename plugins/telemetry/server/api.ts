/**
 * The telemetry plugin's service for other plugins (`provides: ['telemetry']`), reached with
 * `ctx.use('telemetry')` by plugins that declare `dependsOn: ['telemetry']`. Importing this
 * module's types brings the typed `ctx.use('telemetry')` with them.
 */
import type { TelemetryStore } from '@rti/ingest';
import type { InOutEffect } from '@rti/ingest/state/effects';
import type { CarrierPlacement } from '@rti/ingest/state/state-engine';

import type { LiveEvent } from './event-bus';

export type { CarrierPlacement, LiveEvent };
import type { CarrierState, DeviceState } from '@rti/ingest/state/subject-state';

/** last known states from the derived-state engine, read-only (never creates a state) */
export interface Positions {
  carrier(id: number): Readonly<CarrierState> | undefined;
  device(kind: 'beacon' | 'gps', id: number): Readonly<DeviceState> | undefined;
}

export interface TelemetryApi {
  /** the readings store; undefined while starting or when ingest is off */
  readonly store: TelemetryStore | undefined;
  /** the store, or a 503 ApiError while telemetry is starting or off */
  requireStore(): TelemetryStore;
  positions: Positions;
  /** re-reads master data (devices, carriers, warehouses, routes) into the state engine */
  refresh(): Promise<void>;
  /**
   * Carrier in/out passes the rules recorded (gate gateway or GPS fence), handed over once per
   * state flush after its rows are committed — every organisation's at once, so work on them
   * set-based and act inside each pass's organisation (`ctx.systemContext(orgId)`). Returns a
   * function that stops listening.
   */
  onInOut(fn: (passes: InOutPass[]) => Promise<void> | void): () => void;
  /**
   * Documents moved these carriers (committed): the derived state follows, and the device
   * pass still to come at that warehouse confirms the move instead of being read as the
   * opposite one (docs/TELEMETRY.md "Documents and the engine"). Call after `refresh()`.
   */
  placeCarriers(moves: readonly CarrierPlacement[]): void;
  /**
   * Pushes a live event to the organisation's event streams (restricted users get it only for
   * their warehouses), e.g. an alert row another plugin raised — call it after that row is
   * committed. `alert` data: `{ category, resource, ...row }` as the rules' alerts.
   */
  publish(event: LiveEvent): void;
  /**
   * Every live event raised on this instance, of every organisation — each event is raised on
   * one instance only (relayed copies are not repeated here), so a listener sees it once in the
   * cluster (the open-api plugin's webhooks). Called synchronously by the publisher: queue, never wait.
   */
  onRaised(fn: (event: LiveEvent) => void): () => void;
}

/** one in/out pass: carrier, warehouse, direction (10 in, 20 out), time (epoch ms), what saw it */
export type InOutPass = Readonly<InOutEffect>;

declare module '@rti/server/plugin-api' {
  interface PluginServices {
    telemetry: TelemetryApi;
  }
}
