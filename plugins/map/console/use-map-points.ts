/**
 * Loads /map/list (or /map/list/admin) into a PointSet and keeps it current from the live
 * stream (use-live-points): a carrier or GPS event moves/recolours its point in place, no reload.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { request } from '@rti/console/plugin-api';
import type { PointSet } from './map-types';
import { useLivePoints } from './use-live-points';
import { listPath, takeEarlyList } from './map-prefetch';

import { toPointSet, type MapListAnswer } from './point-set';

export type { MapListAnswer };

export function useMapPoints(filters: Record<string, unknown>, admin: boolean) {
  const [answer, setAnswer] = useState<MapListAnswer>();
  const [points, setPoints] = useState<PointSet>();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  const index = useRef(new Map<string, number>());
  const key = JSON.stringify(filters);

  const load = useCallback(async () => {
    setLoading(true);
    setError(undefined);
    try {
      const path = listPath(admin);
      const early = takeEarlyList(path, filters);
      const a = early ? (await early).answer : await request<MapListAnswer>(path, filters, { timeoutMs: 120_000 });
      performance.mark('map:list');
      const p = early ? (await early).points : toPointSet(a);
      index.current = new Map(p.id.map((id, i) => [`${p.kind[i]}/${id}`, i]));
      setAnswer(a);
      setPoints(p);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setLoading(false);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, admin]);

  useEffect(() => void load(), [load]);

  // live moves, applied in place and published once a second
  useLivePoints(
    points,
    setPoints,
    answer,
    (type, d, p) => {
      const k = type === 'carrier' ? `1/${d.id}` : type === 'device' && d.kind === 'gps' ? `2/${d.id}` : null;
      const i = k === null ? undefined : index.current.get(k);
      if (i === undefined) return false;
      let changed = false;
      if (typeof d.longitude === 'number' && typeof d.latitude === 'number') {
        p.lng[i] = d.longitude;
        p.lat[i] = d.latitude;
        changed = true;
      }
      const st = type === 'carrier' ? d.transportStatus : d.status;
      if (typeof st === 'number' && p.st[i] !== st) {
        p.st[i] = st;
        changed = true;
      }
      return changed;
    },
    !admin,
  );

  return { answer, points, loading, error, reload: load };
}
