/**
 * A bench's organisation and its administrator: created once with the cached data (a role holding
 * every permission code), then signed in on the listening server for the measured calls over real
 * HTTP — the same token, headers and envelope a console sends.
 */
import type { RtiServer } from '../../server/src/index';
import type { Case } from './measure';

/** The bench organisation (`code`; its entry code in lower case), a role with every code, its administrator and a project. */
export async function benchOrganisation(server: RtiServer, code: string, name: string): Promise<{ org: number; project: number }> {
  const models = server.db.models;
  const codes = server.listPermissionCodes();
  const org = Number((await models.organization.create({ code, name, entryCode: code.toLowerCase(), pcPermissions: codes })).get('id'));
  const role = Number((await models.role.create({ orgId: org, name: 'all', pcPermissions: codes })).get('id'));
  await models.user.create({ orgId: org, name: 'bench.admin', realName: 'Bench admin', roleIds: [role], organizationIds: [org] });
  const project = Number((await models.project.create({ orgId: org, name: 'Bench' })).get('id'));
  return { org, project };
}

/** The bench organisation's administrator signed in on the listening server: the organisation's id, a POST, and a call answering `data` (a refusal throws). */
export async function signIn<A = { total: number; list: Array<Record<string, number | string | null>> }>(server: RtiServer, url: string, code: string) {
  const models = server.db.models;
  const org = Number((await models.organization.findOne({ where: { code } }))!.get('id'));
  const userId = Number((await models.user.findOne({ where: { orgId: org, name: 'bench.admin' } }))!.get('id'));
  const { token } = await server.access.sessions.create({ userId, loginOrgId: org, loginEntryCode: null });
  const post = (path: string, body: Record<string, unknown>) =>
    fetch(`${url}/api${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Token: token, OrgId: String(org) },
      body: JSON.stringify(body),
    });
  const call = async (c: Case): Promise<A> => {
    const json = (await (await post(c.path, c.body)).json()) as { code: number; message: string; data: A };
    if (json.code !== 0) throw new Error(`${c.path}: ${json.message}`);
    return json.data;
  };
  return { org, post, call };
}
