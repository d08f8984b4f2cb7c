/**
 * Typed view of scripts/lib/services.mjs — the repository's one service starter (throwaway
 * mosquitto, influxd, MariaDB on free loopback ports) — for the TypeScript tests and benches.
 */
// @ts-expect-error plain ESM helper shared with scripts/ (no declaration file, as in console/e2e)
import * as services from '../../../scripts/lib/services.mjs';

export interface RunningService {
  url: string;
  port: number;
  dir: string;
  pid(): number | undefined;
  /** starts the process again on the same port and data */
  start(): Promise<void>;
  /** stops the process; data kept */
  stop(): Promise<void>;
  /** stops and deletes the data */
  cleanup(): Promise<void>;
}
export type RunningMosquitto = RunningService;
export type RunningInflux = RunningService;

interface Services {
  freePort(): Promise<number>;
  tempDir(prefix: string): string;
  haveBinary(bin: string): boolean;
  MOSQUITTO: string;
  INFLUXD: string;
  startMosquitto(opts?: { extra?: string }): Promise<RunningMosquitto>;
  startInfluxdb(): Promise<RunningInflux>;
}
const s = services as Services;

export const { freePort, tempDir, haveBinary, MOSQUITTO, INFLUXD, startMosquitto, startInfluxdb } = s;
