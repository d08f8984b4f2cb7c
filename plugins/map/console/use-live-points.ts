/**
 * Keeps a PointSet current from the live event stream: `apply` changes a point in place and
 * says whether it did; the set is republished (a new version, one redraw) at most once a
 * second, however many events arrive. The stream is opened once per loaded set (`source`:
 * the list answer the points came from), not once per republished version.
 */
import { useEffect, useRef, type Dispatch, type SetStateAction } from 'react';
import type { PointSet } from './map-types';
import { openLiveStream } from '@rti/console/live-stream';

const PUBLISH_MS = 1000;

export function useLivePoints(
  points: PointSet | undefined,
  setPoints: Dispatch<SetStateAction<PointSet | undefined>>,
  source: unknown,
  apply: (type: string, data: any, points: PointSet) => boolean,
  enabled = true,
): void {
  // the latest callback, without reopening the stream when it changes
  const applyRef = useRef(apply);
  applyRef.current = apply;
  const current = useRef(points);
  current.current = points;
  const loaded = points !== undefined;

  useEffect(() => {
    if (!loaded || !enabled) return;
    let dirty = false;
    const stop = openLiveStream((e) => {
      const p = current.current;
      if (p && applyRef.current(e.type, e.data, p)) dirty = true;
    });
    const timer = setInterval(() => {
      if (!dirty) return;
      dirty = false;
      setPoints((p) => (p ? { ...p, version: p.version + 1 } : p));
    }, PUBLISH_MS);
    return () => {
      stop();
      clearInterval(timer);
    };
  }, [loaded, enabled, source, setPoints]);
}
