import { useEffect, useState } from 'react';
import { request } from '../../providers/http-client';
import type { OrgBasic } from '../../providers/org-theme';

/** Public theme and name of the organisation behind a login entry code. */
export function useOrgBasic(entryCode: string | undefined): { org?: OrgBasic; error?: string } {
  const [state, setState] = useState<{ org?: OrgBasic; error?: string }>({});
  useEffect(() => {
    if (!entryCode) {
      setState({});
      return;
    }
    let live = true;
    request<OrgBasic>('/organization/basic', { entryCode }).then(
      (org) => live && setState({ org }),
      (e: unknown) => live && setState({ error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [entryCode]);
  return state;
}
