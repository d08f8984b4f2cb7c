/** /permission/all, /permission/organization/all and /permission/list (docs/API.md). */
import { ApiError, ErrorCode } from '../http/api-error';
import type { CallDef, RequestContext } from '../http/types';
import { narrowTree } from './catalogue';
import { subjectOf } from './guard';
import { msg } from './messages';
import type { AccessService } from './service';
import { checklistCall } from './checklist';

export function permissionCalls(access: AccessService): CallDef[] {
  const currentOrg = (ctx: RequestContext): number => {
    if (ctx.orgId === null) throw new ApiError(ErrorCode.orgNotAllowed, msg(ctx.language, 'access.noOrganization'), {}, 403);
    return ctx.orgId;
  };

  return [
    // the first-day checklist of the current organisation (access/checklist)
    checklistCall(access),
    {
      path: '/permission/all',
      handler: ({ ctx }) => access.catalogue().tree(ctx.language),
    },
    {
      path: '/permission/organization/all',
      async handler({ ctx }) {
        const org = await access.directory.org(currentOrg(ctx));
        return narrowTree(access.catalogue().tree(ctx.language), new Set(org?.permissions ?? []));
      },
    },
    {
      // Always answered from the live policies; `identification: 0` (SPEC §6 refetch) needs no cache bypass.
      path: '/permission/list',
      permission: null,
      async handler({ ctx }) {
        const subject = subjectOf(ctx);
        if (!subject) throw new ApiError(ErrorCode.invalidSession, msg(ctx.language, 'access.invalidSession'), {}, 401);
        return access.accessLists(subject, currentOrg(ctx), ctx.language);
      },
    },
  ];
}
