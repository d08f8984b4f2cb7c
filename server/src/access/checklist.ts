/**
 * The first-day checklist of an organisation (issue 23 "what must work" 1): what a new
 * customer sets up before carriers move — warehouses, carrier codes, devices, gateways, users —
 * with how many it has of each, so its home page can link to each step and say what is done.
 * `/organization/checklist` answers for the current organisation; a step whose list the caller
 * may not open is left out (it would name a page they cannot reach and count rows they cannot see).
 */
import { apiCode, resourceApiPath } from '@rti/metadata';
import { ApiError, ErrorCode } from '../http/api-error';
import type { CallDef } from '../http/types';
import { subjectOf } from './guard';
import { msg } from './messages';
import type { AccessService } from './service';

export interface ChecklistStep {
  key: string;
  /** the resource whose list the step links to */
  resource: string;
  /** console route of that list */
  path: string;
  count: number;
  done: boolean;
}

/** step → resources counted (the first one is linked) */
export const CHECKLIST: ReadonlyArray<{ key: string; resources: string[] }> = [
  { key: 'warehouses', resources: ['warehouse'] },
  { key: 'carrierCodes', resources: ['carrier-code'] },
  { key: 'devices', resources: ['device-beacon', 'device-gps'] },
  { key: 'gateways', resources: ['device-master-gateway', 'device-slave-gateway'] },
  { key: 'users', resources: ['user'] },
];

export function checklistCall(access: AccessService): CallDef {
  return {
    path: '/organization/checklist',
    permission: null,
    async handler({ ctx }) {
      const subject = subjectOf(ctx);
      if (!subject || ctx.orgId === null) throw new ApiError(ErrorCode.invalidSession, msg(ctx.language, 'access.invalidSession'), {}, 401);
      const orgId = ctx.orgId;
      const meta = access.metadata();
      const models = access.sequelize.models;
      const steps: ChecklistStep[] = [];
      for (const step of CHECKLIST) {
        const resources = step.resources.filter((r) => meta.resources[r] && models[r]);
        const visible: string[] = [];
        for (const r of resources) if (await access.policies.can(subject, orgId, apiCode(resourceApiPath(meta.resources[r], 'list')))) visible.push(r);
        if (!visible.length) continue;
        let count = 0;
        for (const r of visible) {
          // users belong to an organisation by membership (home or organizationIds), not by a column;
          // platform users (who created it) are no user of the customer's
          count += r === 'user' ? (await access.directory.usersOfOrg(orgId)).filter((u) => !u.sysOrgUser).length : await models[r].count({ where: { orgId } });
        }
        steps.push({ key: step.key, resource: visible[0], path: meta.resources[visible[0]].route, count, done: count > 0 });
      }
      return { steps, done: steps.every((s) => s.done) };
    },
  };
}
