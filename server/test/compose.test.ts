/**
 * docker-compose.yml runs what the docs say (issue 22): no Docker engine here, so this reads
 * the file and checks it against the code — every variable set on a service built from this
 * repository is one its program reads, API replicas leave telemetry to the workers, and every
 * replica has its own client id, instance id and data folder, as separate machines have.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '../src/config';

interface Service {
  build?: unknown;
  command?: string[];
  environment?: Record<string, unknown>;
  volumes?: string[];
}

const compose = parse(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };
const services = Object.entries(compose.services);
const ours = services.filter(([, s]) => s.build !== undefined);
const program = (s: Service) => (s.command ?? []).join(' ');
const apis = ours.filter(([, s]) => program(s).includes('server/src/main.ts'));
const workers = ours.filter(([, s]) => program(s).includes('ingest/src/worker.ts'));

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name === 'node_modules' || name === 'test' || name === 'e2e') continue;
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.(ts|mts|mjs)$/.test(name) && !name.endsWith('.test.ts')) out.push(readFileSync(p, 'utf8'));
  }
  return out;
}

/** The code each program runs: the API loads the server, every plugin and the ingest library. */
const pluginDirs = readdirSync(join(repoRoot, 'plugins')).map((p) => join(repoRoot, 'plugins', p, 'server'));
const apiCode = [
  join(repoRoot, 'server/src'),
  join(repoRoot, 'ingest/src'),
  ...pluginDirs.filter((d) => statSync(d, { throwIfNoEntry: false })?.isDirectory()),
].flatMap((d) => sources(d));
const workerCode = [...sources(join(repoRoot, 'ingest/src')), readFileSync(join(repoRoot, 'server/src/config.ts'), 'utf8')];

/** `env.NAME`, `env['NAME']`, or a helper called with the name (`envInt('NAME', …)`, `positive(env, 'NAME', …)`). */
export function reads(code: string[], name: string): boolean {
  const re = new RegExp(`env\\.${name}\\b|env\\[\\s*['"\`]${name}['"\`]\\s*\\]|\\(\\s*(?:env\\s*,\\s*)?['"]${name}['"]`);
  return code.some((c) => re.test(c));
}

describe('docker-compose.yml', () => {
  it('has API replicas and ingest workers built from this repository', () => {
    expect(apis.length).toBeGreaterThanOrEqual(2);
    expect(workers.length).toBeGreaterThanOrEqual(2);
    expect(ours.length).toBe(apis.length + workers.length);
  });

  it('sets only variables the program of each service reads', () => {
    const unread: string[] = [];
    for (const [name, s] of apis) for (const v of Object.keys(s.environment ?? {})) if (!reads(apiCode, v)) unread.push(`${name}: ${v}`);
    for (const [name, s] of workers) for (const v of Object.keys(s.environment ?? {})) if (!reads(workerCode, v)) unread.push(`${name}: ${v}`);
    expect(unread).toEqual([]);
  });

  it('the check itself catches a variable nothing reads (the old INGEST: "off")', () => {
    expect(reads(apiCode, 'INGEST')).toBe(false);
    expect(reads(apiCode, 'TELEMETRY_INGEST')).toBe(true);
    expect(reads(apiCode, 'PORT')).toBe(true);
  });

  it('API replicas leave telemetry to the workers and share one object store', () => {
    for (const [, s] of apis) {
      expect(s.environment?.TELEMETRY_INGEST).toBe('off');
      expect(String(s.environment?.STORAGE_URL)).toMatch(/^s3:\/\//);
      expect(s.environment?.MQTT_URL).toBeTruthy();
    }
    for (const [, s] of workers) expect(s.environment?.MQTT_URL).toBe(apis[0][1].environment?.MQTT_URL);
  });

  it('every replica has its own data folder, client id and instance id', () => {
    const volumeOf = (s: Service) => {
      const dataDir = String(s.environment?.DATA_DIR);
      const v = (s.volumes ?? []).find((x) => x.endsWith(`:${dataDir}`));
      return v?.split(':')[0];
    };
    const volumes = ours.map(([, s]) => volumeOf(s));
    expect(volumes.every(Boolean)).toBe(true);
    expect(new Set(volumes).size).toBe(ours.length);
    const clientIds = workers.map(([, s]) => s.environment?.MQTT_CLIENT_ID);
    expect(clientIds.every(Boolean)).toBe(true);
    expect(new Set(clientIds).size).toBe(workers.length);
    const instances = apis.map(([, s]) => s.environment?.INSTANCE_ID);
    expect(instances.every(Boolean)).toBe(true);
    expect(new Set(instances).size).toBe(apis.length);
  });

  it('the load balancer sends requests to every API replica', () => {
    const nginx = readFileSync(join(repoRoot, 'docs/nginx.conf'), 'utf8');
    const upstream = [...nginx.matchAll(/^\s*server\s+([\w.-]+):8080/gm)].map((m) => m[1]);
    expect(upstream.sort()).toEqual(apis.map(([n]) => n).sort());
  });
});
