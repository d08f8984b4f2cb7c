/**
 * Metadata overlays at run time (DESIGN §3): administrators change labels, help texts,
 * column order/visibility/width, required flags, defaults and detail visibility of generated
 * screens without a deploy. Stored in one system table, checked against the base resource,
 * merged into the live metadata in place — so validation, import, export headers and the
 * console's `/metadata` all see the same screen — and re-read by other server instances
 * within a few seconds. Overlays are platform-wide, so only platform (sys-org) users write them.
 */
import { applyOverlay, checkOverlay, OVERLAY_LANGUAGES, type Metadata, type OverlayCatalogue, type ResourceDef, type ResourceOverlay } from '@rti/metadata';
import type { Database } from '../db';
import { ApiError, ErrorCode } from '../http/api-error';
import type { CallRegistry } from '../http/registry';
import type { Translator } from '../i18n/translator';
import type { JobRunner } from '../plugins/jobs';
import { overlayMsg, problemsText } from './messages';
import { defineOverlayModel, type OverlayRow } from './table';
import { retryingTransaction } from '../db/retry';

export interface OverlayHost {
  db: Database;
  metadata: Metadata;
  translator: Translator;
  calls: CallRegistry;
  jobs: JobRunner;
  log(message: string, err?: unknown): void;
}

export interface Overlays {
  /** texts of overlay label/help keys per language (served with /metadata) */
  texts(): OverlayCatalogue;
  /** re-reads the table and re-merges (after a write on another instance) */
  reload(): Promise<void>;
  /** puts the base metadata back (server close: tests share one metadata object) */
  restore(): void;
}

const signatureOf = (rows: OverlayRow[]) =>
  rows
    .map((r) => `${r.resource}\n${r.doc}`)
    .sort()
    .join('\n\n');

/** Faults named in a refusal's message (a hostile body may carry thousands). */
const MAX_PROBLEMS_SHOWN = 10;

/** How often other instances look for overlay changes. */
const POLL_MS = 5000;

export function installOverlays(host: OverlayHost): Overlays {
  const { metadata, translator } = host;
  const base: Record<string, ResourceDef> = structuredClone(metadata.resources);
  const model = defineOverlayModel(host.db.sequelize);
  let texts: OverlayCatalogue = { 'en-US': {}, 'zh-CN': {}, 'ja-JP': {} };
  let signature = '';
  const overlaid = new Set<string>();

  const apply = (rows: OverlayRow[]) => {
    const next: OverlayCatalogue = { 'en-US': {}, 'zh-CN': {}, 'ja-JP': {} };
    const docs = new Map<string, ResourceOverlay>();
    for (const r of rows) {
      try {
        if (base[r.resource]) docs.set(r.resource, JSON.parse(r.doc) as ResourceOverlay);
      } catch (err) {
        host.log(`metadata overlay of ${r.resource} is unreadable; ignored`, err);
      }
    }
    for (const name of new Set([...overlaid, ...docs.keys()])) {
      const live = metadata.resources[name];
      if (!live) continue;
      const doc = docs.get(name);
      // A stored overlay written against an older base may no longer fit it: keep the base.
      const problems = doc ? checkOverlay(base[name]!, doc, metadata.enums) : [];
      if (problems.length)
        host.log(`metadata overlay of ${name} no longer fits its resource (${problems.map((p) => `${p.path} ${p.problem}`).join(', ')}); ignored`);
      const merged = applyOverlay(base[name]!, problems.length ? undefined : doc, (lang, key) => translator.t(lang, key));
      // in place: calls and hooks hold the resource object, and read its fields per call
      live.fields = structuredClone(merged.resource.fields);
      for (const lang of OVERLAY_LANGUAGES) Object.assign(next[lang], merged.texts[lang]);
      if (doc && !problems.length) overlaid.add(name);
      else overlaid.delete(name);
    }
    texts = next;
    translator.setRuntimeTexts(next);
  };

  const reload = async () => {
    const rows = (await model.findAll({ raw: true })) as unknown as OverlayRow[];
    signature = signatureOf(rows);
    apply(rows);
  };

  const platformOnly = (ctx: { user: { sysOrgUser: boolean } | null; language: Parameters<typeof overlayMsg>[0] }) => {
    if (!ctx.user?.sysOrgUser) throw new ApiError(ErrorCode.noPermission, overlayMsg(ctx.language, 'platformOnly'));
  };
  const resourceOf = (body: Record<string, unknown>, lang: Parameters<typeof overlayMsg>[0]) => {
    const name = typeof body.resource === 'string' ? body.resource : '';
    // own keys only: "constructor", "__proto__" or "toString" name no resource
    if (!Object.hasOwn(base, name)) throw new ApiError(ErrorCode.notFound, overlayMsg(lang, 'unknownResource', { resource: name.slice(0, 64) || '-' }));
    return name;
  };

  host.calls.add({
    path: '/metadata/overlay/list',
    async handler() {
      const rows = (await model.findAll({ raw: true, order: [['resource', 'ASC']] })) as unknown as OverlayRow[];
      return rows.map((r) => ({ resource: r.resource, overlay: JSON.parse(r.doc) as unknown, updatedBy: r.updatedBy, updatedAt: r.updatedAt }));
    },
  });

  // the editor needs the base resource (what "reset" returns to) beside the stored overlay
  host.calls.add({
    path: '/metadata/overlay/get',
    async handler({ body, ctx }) {
      const resource = resourceOf(body, ctx.language);
      const row = (await model.findByPk(resource, { raw: true })) as unknown as OverlayRow | null;
      return {
        resource,
        base: base[resource],
        overlay: row ? (JSON.parse(row.doc) as unknown) : null,
        updatedBy: row?.updatedBy ?? null,
        updatedAt: row?.updatedAt ?? null,
      };
    },
  });

  host.calls.add({
    path: '/metadata/overlay/update',
    async handler({ body, ctx }) {
      const resource = resourceOf(body, ctx.language);
      platformOnly(ctx);
      const doc: ResourceOverlay = {
        resource,
        ...(body.columns !== undefined ? { columns: body.columns as string[] } : {}),
        ...(body.fields !== undefined ? { fields: body.fields as ResourceOverlay['fields'] } : {}),
      };
      const problems = checkOverlay(base[resource]!, doc, metadata.enums);
      // the message names the first faults; data carries them all
      if (problems.length)
        throw new ApiError(
          ErrorCode.validation,
          overlayMsg(ctx.language, 'invalid', { problems: problemsText(ctx.language, problems.slice(0, MAX_PROBLEMS_SHOWN)) }),
          { problems },
        );
      await retryingTransaction(host.db.sequelize, async (transaction) => {
        await model.upsert({ resource, doc: JSON.stringify(doc), updatedBy: ctx.user?.username ?? null, updatedAt: new Date() }, { transaction });
      });
      await reload();
      return { resource, overlay: doc };
    },
  });

  host.calls.add({
    path: '/metadata/overlay/delete',
    async handler({ body, ctx }) {
      const resource = resourceOf(body, ctx.language);
      platformOnly(ctx);
      await retryingTransaction(host.db.sequelize, async (transaction) => {
        await model.destroy({ where: { resource }, transaction });
      });
      await reload();
      return { resource };
    },
  });

  // Other instances: a few small rows compared whole (timestamps have whole seconds on
  // MySQL, too coarse for two saves in a row); re-merge only when something changed.
  host.jobs.every('metadata-overlays', POLL_MS, async () => {
    const rows = (await model.findAll({ raw: true })) as unknown as OverlayRow[];
    if (signatureOf(rows) !== signature) {
      signature = signatureOf(rows);
      apply(rows);
    }
  });

  return {
    texts: () => texts,
    reload,
    restore() {
      for (const name of overlaid) if (metadata.resources[name]) metadata.resources[name].fields = structuredClone(base[name]!.fields);
      overlaid.clear();
      translator.setRuntimeTexts({});
    },
  };
}
