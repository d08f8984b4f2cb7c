/** The /map/list answer (columns, delta-encoded ids) turned into one PointSet for the providers. */
import type { MapListAnswer } from '../shared/map-answer';
import type { PointSet } from './map-types';

export type { Columns, MapListAnswer } from '../shared/map-answer';

export function decodeIds(d: readonly number[]): number[] {
  const out = new Array<number>(d.length);
  let s = 0;
  for (let i = 0; i < d.length; i++) out[i] = s += d[i];
  return out;
}

export function toPointSet(a: MapListAnswer): PointSet {
  const cid = decodeIds(a.carriers.id);
  const gid = decodeIds(a.gps.id);
  return {
    id: [...cid, ...gid],
    kind: [...cid.map(() => 1), ...gid.map(() => 2)],
    lng: [...a.carriers.lng, ...a.gps.lng],
    lat: [...a.carriers.lat, ...a.gps.lat],
    st: [...a.carriers.st, ...a.gps.st],
    version: 1,
  };
}
