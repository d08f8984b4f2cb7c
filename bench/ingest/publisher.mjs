// Load generator for the ingest bench: G gateway connections publishing QoS 1 scan batches
// of B readings at a target rate (readings/s; 0 = as fast as acknowledgements allow, with a
// bounded in-flight window per connection). Runs as a child process so its CPU is not the
// ingest's. Config comes as JSON on stdin; prints one JSON line of figures at the end.
import mqtt from 'mqtt';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const cfg = JSON.parse(input);
const { url, org, gateways, batch, rate, durationMs, window } = cfg;

function payloads(gw, beaconsPerGw, variants) {
  const out = [];
  for (let v = 0; v < variants; v++) {
    const readings = [];
    for (let i = 0; i < batch; i++) {
      const b = (v * batch + i) % beaconsPerGw;
      readings.push({
        mac: gw.beacons[b],
        rssi: -50 - ((v + i) % 40),
        battery: 60 + (i % 40),
        temperature: 18 + (i % 10) / 2,
        humidity: 35 + (i % 20),
        uuid: 'FDA50693-A4E2-4FB1-AFCF-C6EB07647825',
        major: 10001,
        minor: b,
        txPower: -59,
      });
    }
    out.push(Buffer.from(JSON.stringify({ gatewayMac: gw.mac, readings })));
  }
  return out;
}

const clients = await Promise.all(
  gateways.map(
    (gw) =>
      new Promise((resolve, reject) => {
        const c = mqtt.connect(url, {
          username: gw.username,
          password: gw.password,
          clientId: `bench-${gw.mac}`,
          clean: true,
          protocolVersion: 4,
          reconnectPeriod: 0,
        });
        c.once('connect', () => resolve({ c, gw, topic: `rti/${org}/gw/${gw.mac}/scan`, frames: payloads(gw, gw.beacons.length, 16), inflight: 0, k: 0 }));
        c.once('error', reject);
      }),
  ),
);

let sent = 0;
let acked = 0;
let behind = 0;
const started = Date.now();
const perTick = rate > 0 ? (rate / batch) * 0.01 : 0; // messages per 10 ms tick
let credit = 0;
let next = 0;

function publishOne(s) {
  s.inflight++;
  sent++;
  const frame = s.frames[s.k++ % s.frames.length];
  s.c.publish(s.topic, frame, { qos: 1 }, () => {
    s.inflight--;
    acked++;
    if (rate === 0 && Date.now() - started < durationMs) pump(s);
  });
}

function pump(s) {
  while (s.inflight < window) publishOne(s);
}

if (rate === 0) for (const s of clients) pump(s);
else {
  const timer = setInterval(() => {
    if (Date.now() - started >= durationMs) return clearInterval(timer);
    credit += perTick;
    while (credit >= 1) {
      const s = clients[next++ % clients.length];
      if (s.inflight >= window) behind++;
      else publishOne(s);
      credit--;
    }
  }, 10);
}

await new Promise((r) => setTimeout(r, durationMs));
const wait = Date.now();
while (acked < sent && Date.now() - wait < 10000) await new Promise((r) => setTimeout(r, 20));
const cpu = process.cpuUsage();
process.stdout.write(JSON.stringify({ sent, acked, behind, readingsSent: sent * batch, cpuMs: Math.round((cpu.user + cpu.system) / 1000) }) + '\n');
await Promise.all(clients.map((s) => s.c.endAsync()));
process.exit(0);
