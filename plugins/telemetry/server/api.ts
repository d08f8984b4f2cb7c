/**
 * The telemetry plugin's service for other plugins (`provides: ['telemetry']`), reached with
 * `ctx.use('telemetry')` by plugins that declare `dependsOn: ['telemetry']`. Importing this
 * module's types brings the typed `ctx.use('telemetry')` with them.
 */
import type { TelemetryStore } from '@rti/ingest';
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
}

declare module '@rti/server/plugin-api' {
  interface PluginServices {
    telemetry: TelemetryApi;
  }
}
