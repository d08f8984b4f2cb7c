/** Shared setup of the maintenance tests: master data, carriers, narrow roles made of API codes. */
import { Enums } from '@rti/metadata';
import type { Caller, TestServer } from '../../../server/test/support/test-server';

export async function ok<T = any>(caller: Caller, path: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(path, body);
  if (got.body.code !== 0) throw new Error(`${path}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

interface PermissionNode {
  code?: string;
  path?: string;
  type?: number;
  children?: PermissionNode[];
}

/** The API codes (catalogue type 30) of exactly these call paths. */
export async function apiCodes(ts: TestServer, paths: string[]): Promise<string[]> {
  const tree = await ok<PermissionNode[]>(ts.a, '/permission/all', {});
  const out = new Map<string, string>();
  const walk = (n: PermissionNode) => {
    if (n.type === 30 && n.code && n.path && paths.includes(n.path)) out.set(n.path, n.code);
    for (const c of n.children ?? []) walk(c);
  };
  tree.forEach(walk);
  const missing = paths.filter((p) => !out.has(p));
  if (missing.length) throw new Error(`no permission code for ${missing.join(', ')}`);
  return [...out.values()];
}

/** A user of organisation A holding only a role made of these calls. */
export async function narrowUser(ts: TestServer, name: string, paths: string[], realName = name, extra: Record<string, unknown> = {}): Promise<Caller> {
  const role = (await ok(ts.a, '/role/create', { name: `role ${name}`, pcPermissions: await apiCodes(ts, paths), pdaPermissions: [] })).id;
  return ts.callerFor(await ts.addUser(ts.orgA, name, { roleIds: [role], realName, ...extra }), ts.orgA);
}

export interface Pool {
  projectId: number;
  codeId: number;
  warehouseId: number;
}

let seq = 0;

/** A carrier code managed as assets (maintenance cycle 90 days) and a warehouse. */
export async function pool(caller: Caller, tag: string): Promise<Pool> {
  const projectId = (await ok(caller, '/project/create', { name: `Rack pool ${tag}` })).id;
  const codeId = (
    await ok(caller, '/carrier-code/create', { code: `RK-${tag}`, name: `Rack ${tag}`, projectId, type: 10, available: true, maintainCycle: 90, warnCycle: 10 })
  ).id;
  const warehouseId = (await ok(caller, '/warehouse/create', { code: `W${tag}`, name: `Plant ${tag}` })).id;
  return { projectId, codeId, warehouseId };
}

export async function carrier(caller: Caller, p: Pool, status: number = Enums.carrierStatus.inUse): Promise<{ id: number; sn: string }> {
  const sn = `RACK-${++seq}-${caller.orgId}`;
  const row = await ok(caller, '/carrier/create', { sn, carrierCodeId: p.codeId, warehouseId: p.warehouseId, status });
  return { id: row.id, sn };
}

export async function dictionary(caller: Caller, category: number, name: string): Promise<number> {
  return (await ok(caller, '/dictionary/create', { category, name, value: `${name}-${++seq}` })).id;
}

export const LANGS = ['en-US', 'zh-CN', 'ja-JP'] as const;
