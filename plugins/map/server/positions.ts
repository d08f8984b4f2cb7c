/**
 * Where the last known positions come from: the telemetry plugin's derived-state engine
 * (carrier and device states, in memory, updated per stored batch). The engine has no public
 * read-only accessor for one subject yet (deviceState()/carrierState() create missing states),
 * so this reads its maps without creating anything; without telemetry every answer is null and
 * callers fall back to the warehouse location.
 */
import type { Database } from '@rti/server';
import type { CarrierState, DeviceState } from '@rti/ingest/state/subject-state';
import { telemetryRuntime } from '../../telemetry/server/runtime';

export interface Positions {
  carrier(id: number): CarrierState | undefined;
  device(kind: 'beacon' | 'gps', id: number): DeviceState | undefined;
}

interface EngineMaps {
  carriers?: Map<number, CarrierState>;
  devices?: Map<string, DeviceState>;
}

const none: Positions = { carrier: () => undefined, device: () => undefined };

export function positionsOf(db: Database): Positions {
  const engine = telemetryRuntime(db)?.engine as unknown as EngineMaps | undefined;
  if (!engine?.carriers || !engine.devices) return none;
  const { carriers, devices } = engine;
  return { carrier: (id) => carriers.get(id), device: (kind, id) => devices.get(`${kind}/${id}`) };
}
