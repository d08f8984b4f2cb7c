import { useCallback, useEffect, useState } from 'react';

/**
 * Loads data now and every `refreshMs` while the page is visible (dashboards, inspection):
 * the latest answer, the last error message and a manual reload.
 */
export function useAutoRefresh<T>(load: () => Promise<T>, refreshMs: number) {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);
  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setData(await load());
      setError(undefined);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setLoading(false);
    }
  }, [load]);
  useEffect(() => {
    void reload();
    const timer = setInterval(() => document.visibilityState === 'visible' && void reload(), refreshMs);
    return () => clearInterval(timer);
  }, [reload, refreshMs]);
  return { data, error, loading, reload };
}
