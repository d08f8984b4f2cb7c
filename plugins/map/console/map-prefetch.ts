/**
 * Work a map page starts when its chunk is evaluated, before React renders it: the unfiltered
 * /map/list answer and the user's provider chunk download side by side, instead of one after
 * the other behind the first render, and the cluster index is built as soon as the answer is in.
 * (Starting even earlier, from the plugin entry at boot, was measured slower for provider A:
 * 3.0–3.3 s against 3.6–3.7 s, because that work then competes with the shell's own start.)
 */
import { session } from '@rti/console/plugin-api';
import { getProvider } from './map-settings';
import type { PointSet } from './map-types';
import { toPointSet, type MapListAnswer } from './point-set';
import { listPath, takeListRequest } from './early-list';

/** an early answer older than this is not used (the page was opened much later) */
const FRESH_MS = 15_000;

/** the answer with its points, already clustered (the index is cached per PointSet) */
export interface EarlyList {
  answer: MapListAnswer;
  points: PointSet;
}

let early: { path: string; at: number; list: Promise<EarlyList> } | undefined;

export { listPath };

export function startMapEarly(admin: boolean): void {
  if (!session.token()) return;
  if (early && early.path === listPath(admin) && Date.now() - early.at < FRESH_MS) return; // already on the way
  // the provider chunk comes through map-view, loaded beside the list, not before it
  void import('./map-view').then((m) => m.preloadProvider(getProvider(session.userId())));
  // the cluster index is built as soon as the answer is in, in the gaps of the shell's start
  const list = takeListRequest(listPath(admin), FRESH_MS).then(async (answer) => {
    const points = toPointSet(answer);
    (await import('./providers/clusters-view')).clusterIndex(points);
    return { answer, points };
  });
  list.catch(() => undefined); // the screen reports a failure when it takes the answer
  early = { path: listPath(admin), at: Date.now(), list };
}

/** The early answer for this call, once, when it is fresh and unfiltered. */
export function takeEarlyList(path: string, filters: Record<string, unknown>): Promise<EarlyList> | undefined {
  const e = early;
  early = undefined;
  if (!e || e.path !== path || Date.now() - e.at > FRESH_MS || Object.values(filters).some((v) => v !== undefined)) return undefined;
  return e.list;
}
