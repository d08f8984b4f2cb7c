/**
 * The audit trail, installed once for every call — never per route:
 * - admin log: one row per call under /api (operator, ip, user agent, path, method,
 *   parameters with secrets masked, response code and message), from the registry's
 *   call-end listeners;
 * - operation log: one row per create/update/delete of a resource with a `logObject`
 *   (SPEC §9 object codes), from after-write hooks, kept only once the write commits; a
 *   workflow step's update names its step (and what ran it from code, `cause`) and is logged
 *   on every resource, with or without a logObject (the document timeline, resources/timeline.ts).
 * Rows go to the `admin-log` / `operation-log` resources' tables in batches after the answer.
 */
import type { Metadata, ResourceDef } from '@rti/metadata';
import type { Transaction } from 'sequelize';
import type { Database } from '../db';
import { insertAll } from '../db/bulk-insert';
import type { CallRecord, CallRegistry } from '../http/registry';
import type { HookAction, HookEvent, HookRegistry } from '../resources/hooks';
import { isSecret } from '../resources/validate';
import { LogBuffer, type LogSink } from './log-buffer';
import { clip, redactedJson } from './redact';

export const ADMIN_LOG = 'admin-log';
export const OPERATION_LOG = 'operation-log';
/** enums.json `operationLogAction` */
export const OPERATION_ACTION: Record<HookAction, number> = { create: 10, update: 20, delete: 30 };
const TEXT_MAX = 20000;

export interface AuditHost {
  db: Database;
  metadata: Metadata;
  calls: CallRegistry;
  hooks: HookRegistry;
  log(message: string, err?: unknown): void;
}

export interface Audit {
  /** writes every waiting row (tests, shutdown) */
  flush(): Promise<void>;
  stop(): Promise<void>;
  /** rows dropped because the buffer was full */
  dropped(): number;
}

/** Runs fn once the outermost transaction commits (a savepoint rolled back never gets there). */
function afterFinalCommit(t: Transaction, fn: () => void): void {
  t.afterCommit(() => {
    const parent = (t as unknown as { parent?: Transaction }).parent;
    if (parent) afterFinalCommit(parent, fn);
    else fn();
  });
}

export function installAudit(host: AuditHost): Audit {
  const sink = (resource: string): LogSink | null => {
    const model = host.db.models[resource];
    if (!model) return null;
    return {
      async write(rows) {
        // Only the columns the resource declares are written (metadata may drop some). A managed
        // transaction takes its turn in SQLite's writer queue instead of busy-waiting on the
        // shared connection (which would stall every read queued behind it).
        const now = new Date();
        const values = rows.map((r) => ({ createdAt: now, updatedAt: now, ...r }));
        await host.db.sequelize.transaction((transaction) => insertAll(model, values, transaction));
      },
    };
  };
  const onError = (err: unknown) => host.log('[audit] log rows not written', err);
  const adminSink = sink(ADMIN_LOG);
  const operationSink = sink(OPERATION_LOG);
  if (!adminSink || !operationSink) host.log(`[audit] metadata has no ${!adminSink ? ADMIN_LOG : OPERATION_LOG} resource: that log is not kept`);
  const admin = adminSink ? new LogBuffer(adminSink, { onError }) : null;
  const operations = operationSink ? new LogBuffer(operationSink, { onError }) : null;
  const stops: Array<() => void> = [];

  if (admin) {
    stops.push(
      host.calls.onCallEnd((r: CallRecord) => {
        const data = (r.data ?? null) as Record<string, unknown> | null;
        // Sign-in calls have no organisation yet: the answer names the one signed into.
        // Public account calls name the organisation and account they acted on (ctx.auditAs).
        const orgId = r.ctx?.orgId ?? r.ctx?.auditAs?.orgId ?? (data && typeof data.loginOrgId === 'number' ? data.loginOrgId : null);
        if (orgId === null) return;
        const username = typeof data?.username === 'string' ? data.username : typeof r.body.username === 'string' ? r.body.username : null;
        admin.push({
          orgId,
          operator: clip(r.ctx?.user?.username ?? r.ctx?.auditAs?.operator ?? username, 50),
          ip: clip(r.req.ip ?? r.req.socket.remoteAddress ?? null, 64),
          userAgent: clip(r.req.get('user-agent') ?? null, 500),
          path: clip(r.req.path, 255),
          method: r.req.method,
          params: redactedJson(r.call?.raw ? { ...r.body, multipart: true } : r.body, TEXT_MAX),
          responseCode: r.code,
          message: clip(r.message, 500),
          time: new Date(),
          createdBy: r.ctx?.user?.id ?? r.ctx?.auditAs?.userId ?? null,
        });
      }),
    );
  }

  if (operations) {
    // per resource once: a step over 5,000 lines runs this hook 5,000 times
    const secretSets = new WeakMap<ResourceDef, Set<string>>();
    const secrets = (res: ResourceDef) => {
      let set = secretSets.get(res);
      if (!set) secretSets.set(res, (set = new Set(res.fields.filter(isSecret).map((f) => f.name))));
      return set;
    };
    const shown = (hidden: Set<string>, k: string) => !hidden.has(k) && !k.endsWith('Label') && !k.endsWith('Labels');
    const same = (a: unknown, b: unknown) =>
      a === b ||
      (a instanceof Date && b instanceof Date
        ? a.getTime() === b.getTime()
        : typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b));
    const content = (e: HookEvent): string => {
      const hidden = secrets(e.resource);
      if (e.action !== 'update') return redactedJson(Object.fromEntries(Object.entries(e.row ?? {}).filter(([k]) => shown(hidden, k))), TEXT_MAX);
      // Updates keep what changed: { field: [before, after] }.
      const before = e.previous ?? {};
      const after = e.row ?? {};
      const changes: Record<string, unknown> = {};
      for (const k of Object.keys(after)) if (k !== 'updatedAt' && shown(hidden, k) && !same(before[k], after[k])) changes[k] = [before[k], after[k]];
      return redactedJson(changes, TEXT_MAX);
    };
    for (const action of ['create', 'update', 'delete'] as const) {
      stops.push(
        host.hooks.after(action, '*', (e) => {
          const object = e.resource.logObject ?? null;
          // a workflow step is logged on every resource (a document's timeline reads it), the
          // rest only on resources with a logObject
          if ((object === null && !e.step) || !e.row) return;
          const row = e.row;
          const orgId = e.ctx.orgId ?? (typeof row.orgId === 'number' ? row.orgId : null);
          if (orgId === null) return;
          const entry = {
            orgId,
            object,
            action: OPERATION_ACTION[action],
            objectId: typeof row.id === 'number' ? row.id : null,
            objectName: clip(row[e.resource.titleField] === undefined || row[e.resource.titleField] === null ? null : String(row[e.resource.titleField]), 200),
            operator: clip(e.ctx.user?.username ?? 'system', 50),
            ip: clip(e.ctx.ip ?? null, 64),
            content: content(e),
            resource: e.resource.name,
            step: e.step ? clip(e.step.name, 64) : null,
            cause: e.step?.cause ? clip(JSON.stringify({ ...e.step.cause, ids: e.step.cause.ids.slice(0, 20) }), 500) : null,
            time: new Date(),
            createdBy: e.ctx.user?.id ?? null,
          };
          afterFinalCommit(e.transaction, () => operations.push(entry));
        }),
      );
    }
  }

  const flush = async () => {
    await Promise.all([admin?.flush(), operations?.flush()]);
  };
  return {
    flush,
    async stop() {
      for (const s of stops) s();
      await flush();
    },
    dropped: () => (admin?.dropped ?? 0) + (operations?.dropped ?? 0),
  };
}
