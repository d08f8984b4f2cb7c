/**
 * The unfiltered /map/list request, started from the plugin entry (loaded at boot) when the
 * console opens straight on a map — with the session calls, before the page chunk and its
 * imports arrive. The page's prefetch takes the request over (map-prefetch.ts).
 */
import { session } from '@rti/console/plugin-api';
import { request } from '@rti/console/plugin-api';
import type { MapListAnswer } from '../shared/map-answer';

export const listPath = (admin: boolean) => (admin ? '/map/list/admin' : '/map/list');

let pending: { path: string; at: number; answer: Promise<MapListAnswer> } | undefined;

export function requestListEarly(admin: boolean): void {
  if (!session.token() || pending?.path === listPath(admin)) return;
  const answer = request<MapListAnswer>(listPath(admin), {}, { timeoutMs: 120_000 });
  answer.catch(() => undefined); // the screen reports a failure when it takes the answer
  pending = { path: listPath(admin), at: Date.now(), answer };
}

/** The request started above for this path, once, if it is recent; else a new one. */
export function takeListRequest(path: string, freshMs: number): Promise<MapListAnswer> {
  const p = pending;
  pending = undefined;
  if (p && p.path === path && Date.now() - p.at < freshMs) return p.answer;
  return request<MapListAnswer>(path, {}, { timeoutMs: 120_000 });
}
