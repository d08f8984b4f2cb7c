/**
 * `npm run simulate`: drives the seeded organisations' fleet against a running server's broker.
 *   SIMULATOR_DEVICES (default 200)  carriers to drive
 *   MQTT_URL (default mqtt://127.0.0.1:<MQTT_PORT or 1883>)
 *   SIMULATOR_STEP_MS (5000), SIMULATOR_MINUTE_MS (60000: shorten to speed the world up)
 *   SIMULATOR_TRIP_MINUTES (30): longest trip of a ship order on the road, simulated minutes
 *   DATABASE_URL as for the server (the simulator provisions its gateways and carriers there)
 */
import { loadMetadata } from '@rti/metadata';
import { createDatabase, loadConfig } from '@rti/server';
import { startSimulator } from './simulator';

const num = (name: string, def: number) => {
  const v = Number(process.env[name] || def);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
};

// the server owns the schema: run against a database it has migrated
const server = loadConfig(process.env);
const database = createDatabase(server.databaseUrl, { metadata: loadMetadata() });

const url = process.env.MQTT_URL || `mqtt://127.0.0.1:${process.env.MQTT_PORT || 1883}`;
const log = { info: (m: string) => console.log(m), warn: (m: string) => console.warn(m) };
const sim = await startSimulator({
  database,
  url,
  devices: num('SIMULATOR_DEVICES', 200),
  stepMs: num('SIMULATOR_STEP_MS', 5000),
  minuteMs: num('SIMULATOR_MINUTE_MS', 60_000),
  log,
});
const report = setInterval(
  () => console.log(`simulator: ${sim.stats.frames} frames, ${sim.stats.readings} readings published, ${sim.stats.failed} waiting for a connection`),
  30_000,
);
const stop = async () => {
  clearInterval(report);
  await sim.stop();
  await database.close();
  process.exit(0);
};
// a signal handler is not awaited: a failed stop is reported and still ends the process
const onSignal = () => {
  stop().catch((e: unknown) => {
    console.error('simulator: stop failed', e);
    process.exit(1);
  });
};
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);
