/**
 * What the pool analytics benches share: the server they start (shipping, inventory, pool
 * analytics; no job catching up beside the bench, which times catch-ups itself), the bench
 * organisation with an administrator holding every code, and that administrator's calls over
 * real HTTP.
 */
import { createServer, type RtiServer } from '../../server/src/index';
import type { Case } from '../lib/measure';

export type Answer = { total: number; list: Array<Record<string, number | string | null>> };

export async function bootPool(databaseUrl: string): Promise<RtiServer> {
  const server = await createServer({
    databaseUrl,
    plugins: ['shipping', 'inventory', 'pool-analytics'],
    logError: (...a: unknown[]) => console.error(...a.map((x) => (x instanceof Error ? x.message : x))),
  });
  await server.jobs.stop();
  return server;
}

/** The bench organisation (`code`), a role with every code, its administrator and a project; answers the ids. */
export async function benchOrganisation(server: RtiServer, code: string, name: string): Promise<{ org: number; project: number }> {
  const models = server.db.models;
  const codes = server.listPermissionCodes();
  const org = Number((await models.organization.create({ code, name, entryCode: code.toLowerCase(), pcPermissions: codes })).get('id'));
  const role = Number((await models.role.create({ orgId: org, name: 'all', pcPermissions: codes })).get('id'));
  await models.user.create({ orgId: org, name: 'bench.admin', realName: 'Bench admin', roleIds: [role], organizationIds: [org] });
  const project = Number((await models.project.create({ orgId: org, name: 'Bench' })).get('id'));
  return { org, project };
}

/** The bench organisation's administrator signed in on the listening server: its id, a POST and a call answering `data`. */
export async function signIn(server: RtiServer, url: string, code: string) {
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
  const call = async (c: Case): Promise<Answer> => {
    const json = (await (await post(c.path, c.body)).json()) as { code: number; message: string; data: Answer };
    if (json.code !== 0) throw new Error(`${c.path}: ${json.message}`);
    return json.data;
  };
  return { org, post, call };
}
