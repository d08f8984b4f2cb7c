/**
 * `npm run seed`: migrates the configured database and adds the demo data (idempotent).
 * `--if-empty` (used by `npm start`): only when the database has no organisation yet;
 * SEED_DEMO=false turns that automatic seeding off. SEED_SCALE=small|full (default full) sets
 * the volume (src/scale.ts).
 */
import { createServer } from '@rti/server';
import { DEMO_LOGINS, isServerEmpty, seedServer } from './index';

const ifEmpty = process.argv.includes('--if-empty');
// Seeding needs the plugins' tables and write hooks, not live telemetry: no broker, no
// simulator, no connection to an external broker (it would take a running server's session).
Object.assign(process.env, { TELEMETRY_INGEST: 'off', SIMULATOR_DEVICES: '0' });
delete process.env.MQTT_URL;
const server = await createServer();
try {
  if (ifEmpty && process.env.SEED_DEMO === 'false') {
    console.log('[seed] SEED_DEMO=false: not seeding');
  } else if (ifEmpty && !(await isServerEmpty(server))) {
    console.log('[seed] database already has data: not seeding');
  } else {
    const started = Date.now();
    const result = await seedServer(server);
    console.log(
      `[seed] demo data ready (scale ${result.scale}: ${result.created} rows added in ${Date.now() - started} ms; ${result.shipOrders} ship orders through their steps in ${result.shippingMs} ms)`,
    );
    console.log('[seed] demo logins (entry codes: demo, acme, kansai — e.g. http://localhost:8080/demo/login):');
    for (const l of DEMO_LOGINS) console.log(`[seed]   ${l.username.padEnd(14)} ${l.password.padEnd(15)} ${l.note}`);
  }
} finally {
  await server.close();
}
