/**
 * Rows for server tests, made through the real create calls (so validation, numbering and
 * hooks run as for a client): one sample row of a resource, a call that must succeed, and the
 * master data most documents point at.
 */
import { sampleBody } from './samples';
import type { Caller, TestServer } from './test-server';

/** the resources a carrier (and the documents over carriers) needs first, in creation order */
export const MASTER_FOR_CARRIERS = ['device-model', 'supplier-customer', 'location', 'warehouse', 'project', 'carrier-code'] as const;

/** Creates sample row `n` of a resource (references from `refs`), failing the test with the server's message. */
export async function createSample(ts: TestServer, c: Caller, resource: string, n: number, refs: Record<string, number>, extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = ts.server.metadata.resources[resource];
  const r = await c.call(`/${resource}/create`, { ...sampleBody(res, ts.server.metadata, n, refs), ...extra });
  if (r.body.code !== 0) throw new Error(`${resource} create: ${r.body.message}`);
  return r.body.data as Record<string, any>;
}

/** A call that must answer code 0: its data, or the test fails naming the call and the answer. */
export async function callOk(c: Caller, path: string, body: unknown): Promise<any> {
  const r = await c.call(path, body);
  if (r.body.code !== 0) throw new Error(`${path}: ${r.body.code} ${r.body.message}`);
  return r.body.data;
}

/** Creates one row of each master resource carriers need into `refs` (numbered from `n`); answers the next free number. */
export async function createMasterForCarriers(ts: TestServer, c: Caller, refs: Record<string, number>, n: number): Promise<number> {
  for (const r of MASTER_FOR_CARRIERS) refs[r] = (await createSample(ts, c, r, n++, refs)).id;
  return n;
}
