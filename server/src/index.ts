/**
 * createServer(): database, call registry (generated + account + plugin calls), access
 * guard, plugins, migrations and the Express app, ready to listen. Used by main.ts, tests,
 * seeds and ingest.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fieldLabelKey, loadMetadata, type Metadata } from '@rti/metadata';
import type { Express } from 'express';
import { createAccess, permissionCalls, type AccessService } from './access';
import { reportLookAlikeEntryCodes } from './access/onboarding';
import { OrgZones } from './access/org-zones';
import { themeCalls } from './access/theme-calls';
import { createApp } from './app';
import { installOverlays } from './overlays';
import { installAudit, type Audit } from './audit';
import { accountCalls } from './auth/account-calls';
import { OneTimeCodes } from './auth/one-time-codes';
import { installUserImport } from './access/user-import';
import { loadConfig, type ServerConfig } from './config';
import { createDatabase, type Database } from './db';
import { retryingTransaction } from './db/retry';
import { fileCalls, sweepUploads } from './files/file-calls';
import { createStorage, type ObjectStorage } from './files/storage';
import { withDeclaredInput } from './http/declared-input';
import { createBodyParser } from './http/body';
import { createInvoker } from './http/dispatcher';
import type { RequestHandler } from 'express';
import { CallRegistry } from './http/registry';
import type { CallDef, CallGuard, Language, RequestContext } from './http/types';
import { loadTranslator, type TFunction, type Translator } from './i18n';
import { installImports, type ImportEngine } from './import';
import type { PluginDefinition, PluginServerContext, PluginServices } from './plugin-api';
import { discoverPlugins, loadPlugins, type ServiceRegistry } from './plugins/host';
import { pluginSchema } from './plugins/schema';
import { grantNewCodes, switchCalls } from './access/plugin-codes';
import { JobRunner } from './plugins/jobs';
import { jobLease } from './plugins/job-lease';
import { ROLLUP_EVERY_MS, RollupRegistry } from './reports/rollups';
import { PublicLinks, publicLinkCalls, type PublicLinkService } from './resources/public-links';
import { printCalls } from './resources/print';
import { labelsCall } from './i18n/labels-call';
import { ReportRegistry } from './reports/registry';
import { createConsoleRenderer } from './render/console-png';
import { resourceCalls } from './resources/calls';
import { HookRegistry } from './resources/hooks';
import { organisationsWith, repositoryFactory, type ScopedRepository } from './resources/repository';
import { DocumentEngine } from './resources/documents';
import { FlowEngine } from './resources/flows';
import { boundRepos, runStepFromCode, TransitionRegistry, type TransitionDeps } from './resources/transitions';
import { ReferenceRegistry } from './resources/references';
import { deriveHeaderScopes } from './resources/scope';

export { definePlugin } from './plugin-api';
export type { PluginDefinition, PluginServerContext, PluginServices } from './plugin-api';
export { hashPassword, verifyPassword } from './resources/password';
export { createDatabase, registerMigration, type Database, type Migration } from './db';
export { loadConfig, type ServerConfig } from './config';
export { ApiError, ErrorCode } from './http/api-error';
export type { CallDef, CallGuard, RequestContext, Language } from './http/types';

export interface CreateServerOptions {
  databaseUrl?: string;
  port?: number;
  config?: Partial<ServerConfig>;
  metadata?: Metadata;
  /** plugin ids to load; default every folder under config.pluginsDir; false = none */
  plugins?: boolean | string[];
  /** replaces the access layer's guard (pipeline tests only) */
  guard?: CallGuard;
  logError?: (message: string, err?: unknown) => void;
}

export interface RtiServer {
  app: Express;
  db: Database;
  config: ServerConfig;
  metadata: Metadata;
  calls: CallRegistry;
  hooks: HookRegistry;
  /** side effects of workflow steps (ctx.transitions) */
  transitions: TransitionRegistry;
  /** header-and-lines documents (ctx.documents) */
  documents: DocumentEngine;
  /** public one-record links (metadata publicLink); plugins reach it as ctx.publicLinks */
  publicLinks: PublicLinkService;
  jobs: JobRunner;
  translator: Translator;
  t: TFunction;
  access: AccessService;
  /** import engine: validators for plugins, idle() for tests */
  imports: ImportEngine;
  /** where uploads and report workbooks are stored (config.storage) */
  storage: ObjectStorage;
  audit: Audit;
  /** report definitions of the plugins (calls, workbooks, scheduler task types) */
  reports: ReportRegistry;
  /** figures kept ahead of the read (ctx.rollups): catch-ups for jobs, benches and tests */
  rollups: RollupRegistry;
  /** loaded plugins, in load order (dependencies first) */
  plugins: PluginDefinition[];
  /** a loaded plugin's service (tests, seeds, benches); undefined when its plugin is not loaded */
  service<K extends keyof PluginServices>(id: K): PluginServices[K] | undefined;
  repo(resource: string, ctx: RequestContext): ScopedRepository;
  systemContext(orgId: number, language?: Language): RequestContext;
  /** every permission code some call checks (generated, account, plugin) */
  listPermissionCodes(): string[];
  /** starts listening (port 0 = ephemeral); resolves with the bound port and base URL */
  listen(port?: number): Promise<{ port: number; url: string }>;
  close(): Promise<void>;
}

export async function createServer(opts: CreateServerOptions = {}): Promise<RtiServer> {
  const base = loadConfig();
  const config: ServerConfig = {
    ...base,
    ...opts.config,
    databaseUrl: opts.databaseUrl ?? opts.config?.databaseUrl ?? base.databaseUrl,
    port: opts.port ?? opts.config?.port ?? base.port,
  };
  const logError = opts.logError ?? ((message: string, err?: unknown) => console.error(message, err ?? ''));
  const metadata = opts.metadata ?? loadMetadata();
  // document lines without warehouses of their own are scoped through their header's
  deriveHeaderScopes(metadata);
  const translator = loadTranslator(undefined, config.pluginsDir);
  const { t } = translator;
  const db = createDatabase(config.databaseUrl, { metadata, log: (m) => logError(m) });
  const calls = new CallRegistry();
  const hooks = new HookRegistry();
  // `once` jobs claim each period on a lease row shared by every instance on the database
  const jobs = new JobRunner(logError, jobLease(db.sequelize, config.instanceId));
  const references = new ReferenceRegistry();
  // one time zone per organisation: reports, schedules, snapshots and dated numbers cut days in it
  const zones = new OrgZones(db, config.timeZone);
  const zoneOf = (orgId: number | null) => zones.of(orgId);
  hooks.after('update', 'organization', (e) => {
    const id = Number(e.row?.id ?? e.previous?.id);
    e.transaction?.afterCommit(() => zones.forget(Number.isFinite(id) ? id : undefined));
  });
  const resourceHost = { db, metadata, hooks, references, t, zoneOf };
  const repo = repositoryFactory(resourceHost);
  // workflow steps and header-and-lines documents (ctx.transitions / ctx.documents)
  const transitions = new TransitionRegistry(() => metadata.resources);
  const documents = new DocumentEngine(resourceHost);
  documents.install(hooks);
  const systemContext = (orgId: number, language: Language = 'en-US'): RequestContext => ({
    language,
    user: null,
    orgId,
    orgIds: [orgId],
    warehouseIds: null,
    via: 'public',
  });

  const stepDeps: TransitionDeps = { host: resourceHost, registry: transitions, documents };
  for (const res of Object.values(metadata.resources))
    for (const def of resourceCalls(res, { metadata, repo, t, transitions: stepDeps, documents, zoneOf })) calls.add(def);
  // documents made from documents (source, prefill) and lines received by scanning
  const flows = new FlowEngine(resourceHost, documents, stepDeps);
  flows.install(hooks);
  for (const def of flows.calls()) calls.add(withDeclaredInput(def, () => metadata.enums));
  // public one-record links (metadata publicLink): tokens, throttle and calls; plugins give the page's reader
  const publicLinks = new PublicLinks(db.sequelize);
  const links = publicLinkCalls({
    links: publicLinks,
    resources: () => metadata.resources,
    systemContext,
    readInScope: (r, call, id) => repo(r, call).find(id),
    publicUrl: config.publicUrl,
  });
  for (const def of links.calls) calls.add(withDeclaredInput(def, () => metadata.enums));
  // printed documents (metadata print), with the public link's QR code
  for (const def of printCalls({ metadata, t, repo, zoneOf, links: links.service })) calls.add(withDeclaredInput(def, () => metadata.enums));
  jobs.every('public-links:sweep', 10 * 60_000, () => publicLinks.sweep().then(() => undefined), { once: true });
  const overlays = installOverlays({ db, metadata, translator, calls, jobs, log: logError });
  // merged with administrators' overlays; `texts` carries the overlay labels per language
  calls.add({
    path: '/metadata',
    permission: null,
    handler: () => ({ resources: metadata.resources, enums: metadata.enums, menu: metadata.menu, texts: overlays.texts() }),
  });
  // the metadata's labels per language, read by the console at run time (no console build for a label)
  calls.add(labelsCall());

  // a plugin declaring perOrganisation (a customer's report) is off in an organisation until switched on
  const switchable = () => plugins.filter((p) => p.perOrganisation).map((p) => p.id);
  const access = createAccess({ sequelize: db.sequelize, metadata: () => metadata, calls: () => calls.list(), translate: t, switchable });
  for (const def of switchCalls(access.switches, (orgIds) => access.policies.changed(orgIds), t)) calls.add(withDeclaredInput(def, () => metadata.enums));
  // a switched-off plugin's task types skip in that organisation: its report is absent there, so is its mail
  const switchedTask = (task: ReturnType<ReportRegistry['task']>): ReturnType<ReportRegistry['task']> => {
    const owner = (task as { plugin?: string } | undefined)?.plugin;
    if (!task || !owner || !switchable().includes(owner)) return task;
    return {
      ...task,
      run: async (run) =>
        run.ctx.orgId !== null && (await access.switches.enabled(run.ctx.orgId)).has(owner)
          ? task.run(run)
          : { kind: 'skipped', reason: t(run.language, 'server.report.switchedOff', { title: t(run.language, `${owner}.title`) }) },
    };
  };
  // account mail (reset codes) goes through the platform's mail service, which a plugin provides
  const mail = () => services?.get('mail');
  for (const def of [...accountCalls(access, { mail, log: logError }), ...permissionCalls(access)]) calls.add(def);
  // Role, user and organisation writes change policies: access hears of them inside the write.
  // (theme images go through the file store, built further down: read when a write or a call runs)
  access.installHooks(hooks, { storage: () => storage, mail, publicUrl: () => config.publicUrl, log: logError });
  for (const def of themeCalls(access, () => storage)) calls.add(def);
  const guard = opts.guard ?? access.guard;
  // a step's guard.permission: the code as the call guard would check it
  stepDeps.can = (ctx, code) =>
    guard.authorize(ctx, code).then(
      () => true,
      () => false,
    );
  const uploadTimeouts = { idleMs: config.uploadIdleMs, totalMs: config.requestTimeoutMs };
  const imports = installImports({
    db,
    metadata,
    t,
    calls,
    hooks,
    repo,
    log: logError,
    timeouts: uploadTimeouts,
    storage: () => storage,
    dataDir: config.dataDir,
    timeZone: config.timeZone,
    zoneOf,
    instanceId: config.instanceId,
    heartbeatMs: config.importHeartbeatMs,
    staleMs: config.importStaleMs,
  });
  // imported users: a random password and an activation mail (access/user-import)
  const userImport = { sequelize: db.sequelize, validators: imports.validators, hooks, codes: new OneTimeCodes(db.sequelize, access.passwords) };
  installUserImport({ ...userImport, mail, publicUrl: () => config.publicUrl, log: logError });
  // imported document lines are checked and rolled up a chunk at a time (after plugins' own handlers)
  for (const res of Object.values(metadata.resources)) {
    const handler = res.import ? documents.importLines(res.name) : null;
    if (handler) imports.validators.add(res.name, handler, { last: true });
  }
  // uploads (and plugins' stored files) on the data folder or S3 (STORAGE_URL): shared by every instance
  const storage = createStorage(config.storage, config.dataDir);
  for (const def of fileCalls({ dataDir: config.dataDir, t, timeouts: uploadTimeouts, storage, instanceId: config.instanceId })) calls.add(def);
  const reports = new ReportRegistry({ calls, metadata, t, zoneOf });
  // figures kept ahead of the read (ctx.rollups): caught up by reads and by a job once per cluster
  const rollups = new RollupRegistry({
    sequelize: db.sequelize,
    repo,
    systemContext,
    zoneOf,
    organisationsWith: (resource) => organisationsWith(db, metadata, resource),
    hooks,
    resources: () => metadata.resources,
  });
  // console pages drawn to PNG for mails: this instance's own console, a render session of the user they are drawn for
  const renderer = createConsoleRenderer({
    config: config.render,
    consoleDist: config.consoleDist,
    ownUrl: () => {
      const a = http?.address();
      return a && typeof a === 'object' ? `http://127.0.0.1:${a.port}` : '';
    },
    user: async (id) => {
      const u = await access.directory.userById(id);
      return u && !u.locked ? u : null;
    },
    entryCode: async (orgId) => (await access.directory.org(orgId))?.entryCode ?? null,
    createSession: (s) => access.sessions.create(s),
    revokeSession: (id) => access.sessions.revoke(id),
  });
  const audit = installAudit({ db, metadata, calls, hooks, log: logError });

  // plugins' HTTP surfaces over the same calls (ctx.http): mounted by createApp, calls run by the invoker
  const routes: Array<{ prefix: string; handler: RequestHandler }> = [];
  const invoke = createInvoker({ calls, guard: () => guard, fieldLabel: (call, key) => fieldLabel(call, key) });
  const readJson = createBodyParser(config.bodyLimit);
  const ready: Array<() => Promise<void> | void> = [];
  const closing: Array<() => Promise<void> | void> = [];
  let services: ServiceRegistry | undefined;
  const contextFor = (def: PluginDefinition, registry: ServiceRegistry, id = def.id): PluginServerContext => ({
    id,
    provide: (service, api) => registry.provide(id, service, api),
    use: (service) => {
      const api = registry.find(def, service);
      if (api === undefined) throw new Error(`plugin "${id}": the service "${service}" is not available (its plugin is not loaded or did not provide it)`);
      return api as never;
    },
    tryUse: (service) => registry.find(def, service) as never,
    auth: { strategy: (s) => access.strategies.add(s) },
    http: { route: (prefix, handler) => void routes.push({ prefix, handler }), invoke, readJson, calls: () => calls.list() },
    addCall: (def) => calls.add(withDeclaredInput({ ...(def as CallDef), plugin: id }, () => metadata.enums)),
    reports: {
      define: (def) => reports.define(def as never, id),
      defineTask: (task) => reports.defineTask(task, id),
      task: (taskId) => switchedTask(reports.task(taskId)),
      taskTypes: () => reports.taskTypes(),
      workbook: (name, body, ctx, opts) => reports.workbook(name, body, ctx, opts),
    },
    hooks: { before: (a, r, fn) => hooks.before(a, r, fn), after: (a, r, fn) => hooks.after(a, r, fn) },
    transitions: { on: (r, step, fn) => transitions.on(r, step, fn) },
    transaction: (call, fn) =>
      retryingTransaction(db.sequelize, (transaction) =>
        fn(boundRepos(resourceHost, call, transaction), transaction, (r, step, ids, input, cause) =>
          runStepFromCode(stepDeps, call, transaction, r, step, ids, input, cause),
        ),
      ),
    documents: {
      onLines: (r, fn) => documents.onLines(r, fn),
      scan: (r, body, call) => flows.scanLines(r, body, call),
      candidates: (r, q, call) => flows.candidatesOf(r, q, call),
    },
    publicLinks: links.service,
    references: { declare: (ref) => references.declare(ref) },
    imports: { validator: (r, fn) => imports.validators.add(r, fn) },
    jobs: { every: (name, ms, fn, opts) => jobs.every(`${id}:${name}`, ms, fn, opts) },
    rollups: { define: (def) => rollups.define(def, id) },
    repo,
    systemContext,
    zoneOf,
    organisationsWith: (resource, where) => organisationsWith(db, metadata, resource, where),
    t,
    db: db.sequelize,
    database: db,
    schema: pluginSchema(id, db),
    addMigration: (m) => db.addMigration({ ...m, name: m.name.startsWith(`${id}-`) ? m.name : `${id}-${m.name}` }),
    onReady: (fn) => void ready.push(fn),
    onClose: (fn) => void closing.push(fn),
    metadata,
    config,
    storage,
    render: renderer,
    log: (message, err) => logError(`[plugin ${id}] ${message}`, err),
  });
  const wanted = opts.plugins ?? true;
  const found = discoverPlugins(config.pluginsDir).filter((p) => wanted === true || (Array.isArray(wanted) && wanted.includes(p.id)));
  let plugins: PluginDefinition[] = [];
  try {
    plugins = wanted === false ? [] : await loadPlugins(found, contextFor, (r) => (services = r));
    await db.migrate();
    if (rollups.names().length) jobs.every('rollups', ROLLUP_EVERY_MS, (run) => rollups.catchUpAll(run.signal), { once: true });
    // codes of a plugin installed since the last start reach organisations and their administrators
    const granted = await grantNewCodes(db.sequelize, access.catalogue());
    if (granted.orgIds.length) await access.policies.changed(granted.orgIds);
    await imports.recover();
    // a store that is down at start: the server answers, uploads get a 503 until it is back
    await storage.init().catch((err) => logError('[files] object storage not reachable at start', err));
    const swept = await sweepUploads(config.dataDir, config.instanceId);
    if (swept) logError(`[files] ${swept} unfinished upload(s) removed`);
    await overlays.reload();
    await reportLookAlikeEntryCodes(db.sequelize, (m) => logError(m));
    for (const fn of ready) await fn();
  } catch (err) {
    // A failed start must not leave connections open (the process would never exit).
    await jobs.stop().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw err;
  }
  jobs.start();

  // refused bodies name a resource call's field by its label
  function fieldLabel(call: Pick<CallDef, 'resource' | 'input'>, key: string) {
    const declared = call.input && Object.prototype.hasOwnProperty.call(call.input, key) ? call.input[key] : undefined;
    if (declared?.label) return declared.label;
    const f = call.resource ? metadata.resources[call.resource]?.fields.find((x) => x.name === key) : undefined;
    return f ? fieldLabelKey(f) : undefined;
  }
  const app = createApp({
    calls,
    guard: () => guard,
    translator,
    bodyLimit: config.bodyLimit,
    consoleDist: config.consoleDist,
    trustProxy: config.trustProxy,
    logError,
    fieldLabel,
    routes,
  });
  let http: Server | null = null;

  return {
    app,
    db,
    config,
    metadata,
    calls,
    hooks,
    transitions,
    documents,
    publicLinks: links.service,
    jobs,
    translator,
    t,
    access,
    imports,
    storage,
    audit,
    reports,
    rollups,
    plugins,
    service: (id) => services?.get(id),
    repo,
    systemContext,
    listPermissionCodes: () => calls.permissionCodes(),
    listen(port = config.port) {
      return new Promise((resolve, reject) => {
        // Every request is answered or ended within the time-out (docs/SERVER.md "Upload and
        // import limits"); Node checks the running ones every 5 s instead of its default 30 s.
        const server = createHttpServer(
          { requestTimeout: config.requestTimeoutMs, headersTimeout: Math.min(config.requestTimeoutMs, 20_000), connectionsCheckingInterval: 5_000 },
          app,
        );
        server.once('error', reject);
        server.listen(port, () => {
          http = server;
          const bound = (server.address() as AddressInfo).port;
          resolve({ port: bound, url: `http://127.0.0.1:${bound}` });
        });
      });
    },
    async close() {
      await jobs.stop();
      await imports.stop();
      if (http) {
        const server = http;
        http = null;
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          setTimeout(() => server.closeAllConnections(), 2000).unref();
        });
      }
      // plugins' own workers (schedulers, brokers) stop before the tables they use go away
      for (const fn of closing.reverse()) await Promise.resolve(fn()).catch((err) => logError('plugin close failed', err));
      await audit.stop();
      storage.close();
      overlays.restore();
      await db.close();
    },
  };
}
