import { useCallback, useEffect, useState } from 'react';
import { request } from '@rti/console/plugin-api';

export interface TokenInfo {
  orgId: number;
  /** masked, except in the create answer */
  token: string;
  masked?: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The current organisation's token (masked) and the three calls of SPEC §7. */
export function useOrgToken() {
  const [info, setInfo] = useState<TokenInfo | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string>();

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setInfo(await request<TokenInfo | null>('/organization-token'));
      setError(undefined);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  /** Issues a new token (replacing any) and returns it in clear, once. */
  const issue = useCallback(async (): Promise<TokenInfo> => {
    const issued = await request<TokenInfo>('/organization-token/create');
    setInfo({ ...issued, token: issued.masked ?? issued.token });
    return issued;
  }, []);

  const revoke = useCallback(async (): Promise<void> => {
    await request('/organization-token/delete');
    setInfo(null);
  }, []);

  return { info, loading, error, reload, issue, revoke };
}
