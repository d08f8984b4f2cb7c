/**
 * Typed API for console plugins (`@rti/console/plugin-api`), imported by plugins only — never by
 * the shell, whose code takes the types from `plugin-contract.ts` (the lint step refuses an
 * import of this file inside console/src). A plugin's `plugins/<name>/console/index.ts(x)`
 * default-exports `defineConsolePlugin({...})`; the host (src/plugins/host.ts) loads every one
 * lazily and turns its pages into routes, menu entries, palette actions, screen overrides and
 * header widgets. Page components are dynamic imports so each page is its own chunk.
 */
import { createElement } from 'react';
import type { ConsolePlugin, LazyComponent, RowActionProps } from './plugin-contract';

export type * from './plugin-contract';

/** The plugin as the host reads it: each declared record page becomes a page and, with `button`, a detail-page action. */
export function defineConsolePlugin(plugin: ConsolePlugin): ConsolePlugin {
  const records = plugin.recordPages ?? [];
  if (!records.length) return plugin;
  const screen = () => import('./meta/pages/record-page');
  return {
    ...plugin,
    pages: [
      ...(plugin.pages ?? []),
      ...records.map((def) => ({
        id: def.id,
        path: def.path,
        title: def.title,
        component: () => screen().then((m) => ({ default: () => createElement(m.RecordScreen, { def }) })),
      })),
    ],
    rowActions: [
      ...(plugin.rowActions ?? []),
      ...records
        .filter((def) => def.button)
        .map((def) => ({
          id: `record-page-${def.id}`,
          resources: [def.resource],
          where: ['detail' as const],
          viewCode: def.button!.viewCode,
          component: () => screen().then((m) => ({ default: (p: RowActionProps) => createElement(m.RecordPageButton, { ...p, def }) })),
        })),
    ],
  };
}

export { menuBadges } from './lib/menu-badges';
/** react-router's navigate typed as the console's router runs it: synchronous, nothing to await */
export { useNavigate, type Navigate } from './lib/navigate';
/** custom field widgets for generated forms (docs/CONSOLE.md "Field widgets") */
export { registerFieldWidget, type FieldWidget, type FieldWidgetProps } from './meta/components/field-widgets';
export { request } from './providers/http-client';
export { useAutoRefresh } from './lib/use-auto-refresh';
export { Guarded, useCan } from './components/guard/guarded';
/** the first-day checklist of the current organisation (home pages show it until every step is done) */
export { OnboardingChecklist } from './components/onboarding-checklist';
export type { GuardTarget } from './lib/guard';

// What plugins may use of the shell, by package path (`@rti/console/plugin-api`); nothing
// else of console/src is reachable from a plugin (the lint step refuses relative paths into it).
export { API_BASE } from './constants';
export { apiHeaders } from './providers/http-client';
export { session } from './lib/session';
export { useMetadata } from './providers/metadata-context';
export { useShell } from './providers/shell-context';
export { reloadMetadata, refreshIdentity } from './providers/app-state';
export { downloadBlob } from './meta/lib/download';
export { formatDateTime, fileStamp, DATE_FORMAT, DATETIME_FORMAT, MINUTE_FORMAT, TIME_FORMAT, type DateTimeKind } from './lib/date-format';
export { mayUse } from './lib/guard';
export type { PublicPage } from './routes/public-pages';
/** The generic import dialog (template, upload, progress, refused rows), loaded on demand so plugin entries stay small. */
export const loadImportDialog = () => import('./meta/components/import-dialog').then((m) => m.ImportDialog);

/**
 * The generated page of a server report definition (ctx.reports.define), as a page component:
 * `pages: [{ id, path, title, component: reportPage('reports.inventory-daily') }]`.
 */
export const reportPage =
  (name: string): LazyComponent =>
  () =>
    import('./meta/pages/report').then((m) => ({ default: () => createElement(m.ReportPage, { name }) }));
