/**
 * Boots the real server (createServer, real HTTP on an ephemeral port) on a fresh database
 * and gives tests signed-in callers in two organisations, with every permission code
 * granted through the real access layer (organisation set ∩ role).
 */
import type { Language } from '../../src/http/types';
import { createServer, type CreateServerOptions, type RtiServer } from '../../src/index';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface CallOptions {
  token?: string | null;
  orgId?: number | null;
  language?: Language | string;
  headers?: Record<string, string>;
  /** raw request body (malformed JSON tests) */
  rawBody?: string;
  method?: string;
}

export interface CallResult<T = unknown> {
  status: number;
  body: { code: number; message: string; data: T };
  text: string;
  headers: Headers;
}

export interface Caller {
  userId: number;
  orgId: number;
  token: string;
  call<T = any>(path: string, body?: unknown, opts?: CallOptions): Promise<CallResult<T>>;
  /** the raw response (exports) */
  fetch(path: string, body?: unknown, opts?: CallOptions): Promise<Response>;
}

export interface TestServer {
  server: RtiServer;
  url: string;
  db: TestDatabase;
  orgA: number;
  orgB: number;
  /** full access in organisation A / B */
  a: Caller;
  b: Caller;
  /** any request against the server */
  request(path: string, body?: unknown, opts?: CallOptions): Promise<Response>;
  call<T = any>(path: string, body?: unknown, opts?: CallOptions): Promise<CallResult<T>>;
  /** a signed-in caller for an existing user in one of its organisations */
  callerFor(userId: number, orgId: number): Promise<Caller>;
  /** creates a user row in an organisation with the org's full role (optionally warehouse-restricted) */
  addUser(orgId: number, name: string, extra?: Record<string, unknown>): Promise<number>;
  close(): Promise<void>;
}

export async function startTestServer(opts: Omit<CreateServerOptions, 'databaseUrl'> = {}): Promise<TestServer> {
  const db = await createTestDatabase();
  let server: RtiServer;
  // Errors the server logs stay out of the output, but the latest is kept: an unexpected 10000
  // then carries its cause into the failing test's message (a CI log shows only that message).
  let lastError: string | undefined;
  const keepError = (message: string, err?: unknown) => {
    lastError = `${message} ${err instanceof Error ? (err.stack ?? err.message) : String(err ?? '')}`.slice(0, 2000);
  };
  try {
    server = await createServer({ plugins: false, logError: keepError, ...opts, databaseUrl: db.url });
  } catch (err) {
    await db.drop();
    throw err;
  }
  const { url } = await server.listen(0);

  const request = (path: string, body?: unknown, o: CallOptions = {}) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', ...o.headers };
    if (o.token) headers.Token = o.token;
    if (o.orgId !== undefined && o.orgId !== null) headers.OrgId = String(o.orgId);
    if (o.language) headers.Language = o.language;
    const method = o.method ?? 'POST';
    return fetch(url + '/api' + path, {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : (o.rawBody ?? JSON.stringify(body ?? {})),
    });
  };
  const call = async <T>(path: string, body?: unknown, o: CallOptions = {}): Promise<CallResult<T>> => {
    const res = await request(path, body, o);
    const text = await res.text();
    let parsed: CallResult<T>['body'];
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`${path}: not a JSON answer (HTTP ${res.status}): ${text.slice(0, 200)}`);
    }
    if (parsed?.code === 10000 && lastError) parsed.message = `${parsed.message} [server: ${lastError}]`;
    lastError = undefined;
    return { status: res.status, body: parsed, text, headers: res.headers };
  };

  const models = server.db.models;
  const codes = server.listPermissionCodes();
  const org = async (code: string) =>
    Number((await models.organization.create({ code, name: `Org ${code}`, entryCode: code.toLowerCase(), pcPermissions: codes })).get('id'));
  const orgA = await org('ORGA');
  const orgB = await org('ORGB');
  // plugins switched on per organisation (customer reports) are on in both: the suites walk their calls
  for (const plugin of server.access.switches.switchable()) for (const o of [orgA, orgB]) await server.access.switches.set(o, plugin, true);
  const roles: Record<number, number> = {};
  for (const o of [orgA, orgB]) roles[o] = Number((await models.role.create({ orgId: o, name: 'all', pcPermissions: codes })).get('id'));

  const addUser = async (orgId: number, name: string, extra: Record<string, unknown> = {}) => {
    const row = await models.user.create({ orgId, name, realName: name, roleIds: [roles[orgId]], organizationIds: [orgId], ...extra });
    // Policies load lazily per organisation; a new member must be seen at once.
    await server.access.policies.changed([orgId], undefined);
    return Number(row.get('id'));
  };
  const callerFor = async (userId: number, orgId: number): Promise<Caller> => {
    const { token } = await server.access.sessions.create({ userId, loginOrgId: orgId, loginEntryCode: null });
    return {
      userId,
      orgId,
      token,
      call: (path, body, o = {}) => call(path, body, { token, orgId, ...o }),
      fetch: (path, body, o = {}) => request(path, body, { token, orgId, ...o }),
    };
  };

  const a = await callerFor(await addUser(orgA, 'alice'), orgA);
  const b = await callerFor(await addUser(orgB, 'bob'), orgB);

  return {
    server,
    url,
    db,
    orgA,
    orgB,
    a,
    b,
    request,
    call,
    callerFor,
    addUser,
    async close() {
      await server.close();
      await db.drop();
    },
  };
}
