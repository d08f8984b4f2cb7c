import { useCallback, useEffect, useState } from 'react';
import { columnStorageKey, defaultVisibility, mergeVisibility, type ColumnSpec, type ColumnVisibility } from '../lib/columns';

/** Column visibility of one table, stored per user in localStorage (SPEC §9). */
export function useColumnVisibility(specs: ColumnSpec[], userId: string | number | undefined, resource: string) {
  const key = columnStorageKey(userId, resource);
  const read = useCallback(() => mergeVisibility(specs, safeGet(key)), [specs, key]);
  const [visibility, setVisibility] = useState<ColumnVisibility>(read);
  // the identity arrives after the first render; reload the user's choice then
  useEffect(() => setVisibility(read()), [read]);

  const set = (col: string, visible: boolean) =>
    setVisibility((cur) => {
      const next = { ...cur, [col]: visible };
      try {
        localStorage.setItem(key, JSON.stringify(next));
      } catch {
        /* storage full or disabled: the choice lasts for this page only */
      }
      return next;
    });
  const reset = () => {
    setVisibility(defaultVisibility(specs));
    try {
      localStorage.removeItem(key);
    } catch {
      /* ignore */
    }
  };
  return { visibility, set, reset };
}

function safeGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
