/**
 * Rows for server tests, made through the real create calls (so validation, numbering and
 * hooks run as for a client): one sample row of a resource, a call that must succeed, and the
 * master data most documents point at.
 */
import { resourceApiPath, resourceTransitions, transitionInputs } from '@rti/metadata';
import { sampleBody } from './samples';
import type { Caller, TestServer } from './test-server';

/** the resources a carrier (and the documents over carriers) needs first, in creation order */
export const MASTER_FOR_CARRIERS = ['device-model', 'supplier-customer', 'location', 'warehouse', 'project', 'carrier-code'] as const;

/** Creates sample row `n` of a resource (references from `refs`), failing the test with the server's message. */
export async function createSample(
  ts: TestServer,
  c: Caller,
  resource: string,
  n: number,
  refs: Record<string, number>,
  extra: Record<string, unknown> = {},
): Promise<Record<string, any>> {
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

/** Moves a row along its declared steps (the shortest way) until its status is one of `wanted`. */
export async function bringToStatus(ts: TestServer, c: Caller, name: string, id: number, wanted: Array<string | number>): Promise<void> {
  const res = ts.server.metadata.resources[name];
  const field = res.statusField ?? 'status';
  const row = await callOk(c, resourceApiPath(res, 'base'), { id });
  const steps = resourceTransitions(res).filter((t) => t.from && t.to !== undefined && !t.choose && !transitionInputs(res, t).some((i) => i.field.required));
  const key = (v: unknown) => String(v);
  const path = new Map<string, typeof steps>([[key(row[field]), []]]);
  const queue = [key(row[field])];
  while (queue.length) {
    const at = queue.shift()!;
    if (wanted.some((w) => key(w) === at)) {
      for (const step of path.get(at)!) await callOk(c, step.path, { id });
      return;
    }
    for (const t of steps.filter((x) => x.from!.some((f) => key(f) === at))) {
      if (path.has(key(t.to))) continue;
      path.set(key(t.to), [...path.get(at)!, t]);
      queue.push(key(t.to));
    }
  }
  throw new Error(`${name} #${id}: no declared steps lead to ${wanted.join(', ')}`);
}

let sourceSeq = 1;

/** A body without the header values a document takes from its source (they came with the source). */
export function withoutSourceValues(ts: TestServer, resource: string, body: Record<string, unknown>): Record<string, unknown> {
  const header = ts.server.metadata.resources[resource].source?.header ?? {};
  return Object.fromEntries(Object.entries(body).filter(([k]) => !(k in header)));
}

/**
 * The references for a sample of a document made from a source (metadata `source`): a source
 * row of its own, moved into a status the document may be made from. Other resources: `refs`.
 */
export async function sourceReady(
  ts: TestServer,
  c: Caller,
  resource: string,
  refs: Record<string, number>,
  others: Record<string, number>,
  n: number,
  values: Record<string, unknown> = {},
): Promise<Record<string, number>> {
  const res = ts.server.metadata.resources[resource];
  if (!res.source) return refs;
  const src = ts.server.metadata.resources[res.source.resource];
  // the document's header values wanted (its warehouses) are the source's own, through source.header
  const given = Object.fromEntries(
    Object.entries(res.source.header ?? {})
      .filter(([mine]) => values[mine] !== undefined)
      .map(([mine, theirs]) => [theirs, values[mine]]),
  );
  const made = await callOk(c, resourceApiPath(src, 'create'), { ...sampleBody(src, ts.server.metadata, n + sourceSeq++ * 1000, refs, others), ...given });
  await bringToStatus(ts, c, src.name, Number(made.id), res.source.from as Array<string | number>);
  return { ...refs, [src.name]: Number(made.id) };
}
