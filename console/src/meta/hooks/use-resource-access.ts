/** One access check per action per screen (never per row). */
import { useMemo } from 'react';
import { useCan } from '@refinedev/core';
import type { ResourceDef } from '@rti/metadata/browser';
import { hasCall } from '../lib/resource-calls';

export interface ResourceAccess {
  show: boolean;
  create: boolean;
  edit: boolean;
  delete: boolean;
  export: boolean;
  /** the `status/update` call (rules.statusUpdate) */
  status: boolean;
  /** the `import` call (resources with an `import` definition) */
  import: boolean;
}

export function useResourceAccess(res: ResourceDef): ResourceAccess {
  const resource = res.name;
  const show = useCan({ resource, action: 'show' }).data?.can ?? false;
  const create = useCan({ resource, action: 'create' }).data?.can ?? false;
  const edit = useCan({ resource, action: 'edit' }).data?.can ?? false;
  const del = useCan({ resource, action: 'delete' }).data?.can ?? false;
  // unknown actions map to Api + camel(`/<name>/<action>`) in the shell's access control
  const exp = useCan({ resource, action: 'export' }).data?.can ?? false;
  const status = useCan({ resource, action: 'statusUpdate', queryOptions: { enabled: Boolean(res.rules?.statusUpdate) } }).data?.can ?? false;
  const imp = useCan({ resource, action: 'import', queryOptions: { enabled: Boolean(res.import) } }).data?.can ?? false;
  // the same object while nothing changed, so screens may memoise on it
  return useMemo(
    () => ({
      show: show && hasCall(res, 'base'),
      create: create && hasCall(res, 'create'),
      edit: edit && hasCall(res, 'update'),
      delete: del && hasCall(res, 'delete'),
      export: exp && hasCall(res, 'export'),
      status: status && Boolean(res.rules?.statusUpdate),
      import: imp && Boolean(res.import),
    }),
    [res, show, create, edit, del, exp, status, imp],
  );
}
