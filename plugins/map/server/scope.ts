/**
 * Request contexts a map call reads through. `/…/admin` calls of platform users span every
 * organisation the user belongs to — one scoped context per organisation, so each query still
 * goes through the scoped repository; anyone else gets the current organisation only.
 */
import type { RequestContext } from '@rti/server/plugin-api';

export function contextsFor(call: RequestContext, admin: boolean): RequestContext[] {
  if (!admin || !call.user?.sysOrgUser) return [call];
  return call.orgIds.map((orgId) => ({ ...call, orgId }));
}
