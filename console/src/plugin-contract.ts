/**
 * The contract between the console shell and its plugins: what a plugin declares
 * (`ConsolePlugin` and its parts) and what the shell hands to a plugin's components (zone and
 * row-action props). Types only, and nothing from the shell: the shell's own code (host, routes,
 * zones, menu) imports these types from here, while plugins import them — with the shell's
 * helpers — from the barrel `plugin-api.ts` (`@rti/console/plugin-api`), which the shell never
 * imports. So the shell and the plugin surface do not import each other.
 */
import type { FormInstance } from 'antd';
import type { ComponentType } from 'react';
import type { MenuItem, ResourceDef } from '@rti/metadata/browser';

export type LazyComponent<P = object> = () => Promise<{ default: ComponentType<P> }>;

export interface ConsolePage {
  /** unique id; menu.json items refer to it with `page` */
  id: string;
  /** absolute console path (SPEC §2), may hold route params like `/truck/detail/:id` */
  path: string;
  /** i18n key of the page title (tabs, breadcrumb, document title) */
  title: string;
  component: LazyComponent;
  /** access value needed to open the page; default View + camel-cased route name */
  viewCode?: string;
  /** rendered outside the main layout (big screens, screenshots) */
  standalone?: boolean;
  /** kept mounted while its tab is open */
  cached?: boolean;
  /** hides the side menu while open */
  hideSider?: boolean;
  /**
   * Called once when the console opens straight on this page (a reload or a link), as soon as
   * the session is known and while the layout still loads, beside the fetch of `component`:
   * start the page's first data call or heavy chunks here. Must not throw or render.
   */
  preload?: (params: Record<string, string | undefined>) => void;
}

export interface PaletteContext {
  navigate: (path: string) => void;
}

export interface PaletteAction {
  id: string;
  /** i18n key */
  name: string;
  /** i18n key of the palette section */
  section?: string;
  keywords?: string;
  /** shown only to users holding this access value */
  viewCode?: string;
  perform: (ctx: PaletteContext) => void;
}

export type ScreenKind = 'list' | 'create' | 'edit' | 'show';
export type ResourceScreen = LazyComponent<{ resource: ResourceDef }>;

export interface HeaderWidget {
  id: string;
  component: LazyComponent;
  /** hidden when the user lacks this access value */
  viewCode?: string;
  /** lower first; built-in widgets use 10..90 */
  order?: number;
  /** takes the place of a built-in widget (e.g. a live notification bell) */
  replaces?: 'notifications';
}

export interface NotificationItem {
  key: string;
  title: string;
  description?: string;
  time?: string | number;
  /** opened when the item is clicked */
  path?: string;
}

/** One category in the header bell (e.g. one alert kind). */
export interface NotificationSource {
  id: string;
  /** i18n key of the category tab */
  title: string;
  viewCode?: string;
  load: () => Promise<NotificationItem[]>;
}

/** What a row action component receives: the row it acts on and a way to refresh the list. */
export interface RowActionProps {
  resource: ResourceDef;
  record: Record<string, unknown>;
  /** call after the action changed the row, so the list (and its counts) reload */
  onChanged: () => void;
}

/**
 * An extra button in the actions column of generated lists (beside Detail / Edit / Delete),
 * for the resources named. The component decides per row whether it shows (e.g. only while a
 * row is open) and is loaded lazily with the list.
 */
export interface RowAction {
  id: string;
  resources: string[];
  component: LazyComponent<RowActionProps>;
  /** hidden when the user lacks this access value */
  viewCode?: string;
  /** lower first, after the built-in actions */
  order?: number;
  /** column width the action needs (px), so the fixed actions column fits */
  width?: number;
  /** where it shows: the list's actions column (default) and/or the detail page's header */
  where?: Array<'list' | 'detail'>;
  /**
   * name of a workflow step (metadata `transitions`) this action takes the place of: the
   * generated button of that step is not shown on these resources' rows and detail pages
   */
  replaces?: string;
}

/**
 * What a zone component on a record's detail page receives (`<resource>.show.before`,
 * `<resource>.show.after`): the resource, the record as the page shows it, and `refresh()`,
 * which reads the record and its lines again (call it after the component changed them).
 */
export interface ZoneProps {
  resource: ResourceDef;
  record: Record<string, unknown>;
  refresh: () => void;
}

/** `<resource>.lines.toolbar`: above a document's lines (or sub-rows) on its detail page; the lines can be ticked. */
export interface LinesZoneProps extends ZoneProps {
  /** the line resource of the table below */
  lines: ResourceDef;
  /** ids of the ticked lines (kept across the table's pages) */
  selectedIds: Array<number | string>;
  clearSelection: () => void;
}

/** `<resource>.list.toolbar`: above a generated list's table; `refresh()` reloads its page. */
export interface ListZoneProps {
  resource: ResourceDef;
  record?: undefined;
  refresh: () => void;
}

/**
 * `<resource>.form.after`: below a generated create or edit form's fields, inside the form — the
 * component may read and set the form's values (a map picker filling longitude and latitude).
 */
export interface FormZoneProps {
  resource: ResourceDef;
  form: FormInstance;
  mode: 'create' | 'edit';
  record?: undefined;
}

/**
 * One component in a zone, loaded lazily with the screen; the object form adds a guard, an order
 * and `when`: whether it applies to the record (a detail page's zones; e.g. only while a receipt
 * is open). A lines toolbar none of whose entries applies leaves the lines without checkboxes.
 */
export type ZoneEntry<P> =
  LazyComponent<P> | { component: LazyComponent<P>; viewCode?: string; order?: number; when?: (record: Record<string, unknown>) => boolean };
type ZoneEntries<P> = ZoneEntry<P> | Array<ZoneEntry<P>>;

/** The places of the generated screens a plugin may fill, per resource (docs/CONSOLE.md "Zones"). */
export type ZoneSlot = 'show.before' | 'show.after' | 'lines.toolbar' | 'list.toolbar' | 'form.after';

/**
 * Components a plugin adds to generated screens, by zone name `<resource>.<slot>`:
 * `{ 'carrier-asset.show.after': () => import('./asset-history') }`.
 */
export interface ZoneMap {
  [zone: `${string}.show.before`]: ZoneEntries<ZoneProps>;
  [zone: `${string}.show.after`]: ZoneEntries<ZoneProps>;
  [zone: `${string}.lines.toolbar`]: ZoneEntries<LinesZoneProps>;
  [zone: `${string}.list.toolbar`]: ZoneEntries<ListZoneProps>;
  [zone: `${string}.form.after`]: ZoneEntries<FormZoneProps>;
}

/** A menu entry added by a plugin to an existing menu.json group (by key). */
export type PluginMenuItem = MenuItem & { group: string };

/** What a record page's panel receives: the record as read for the page, and `refresh()` to read it again. */
export interface RecordPanelProps {
  resource: ResourceDef;
  record: Record<string, unknown>;
  refresh: () => void;
}

/**
 * A screen of one record at its own route, opened with `?id=` (SPEC's "add carrier",
 * "containerize" of a ship order): the record's name, the header `fields`, a way back to its
 * detail page, and the panel — the document's generated lines (`'lines'`: ticked lines, "Set
 * for selected", and with `adding` "Add by …", its picker and the import) or a plugin component. With `whileLinesOpen` the panel shows
 * only while the lines may change (the first child's `editableWhen`), otherwise a note why not.
 * `button` puts a link to it on the record's detail page while the panel applies.
 */
export interface RecordPage {
  id: string;
  /** the page's route (SPEC §2) */
  path: string;
  /** the tab's and menu's title key */
  title: string;
  /** the card's title key, `{{name}}` being the record's title (default `title`) */
  heading?: string;
  resource: string;
  fields: string[];
  whileLinesOpen?: boolean;
  panel: 'lines' | LazyComponent<RecordPanelProps>;
  /** with `panel: 'lines'`: offer adding lines too ("Add by …" with its picker, the lines' import) */
  adding?: boolean;
  button?: { label: string; viewCode?: string };
}

/** `POST <line prefix>/batch/add`: lines added, and the refused rows with their reasons. */
export interface BatchAddAnswer {
  added: number;
  failed: Array<{ row: number; sn: string; reason?: number; code: number; message: string }>;
}

export interface ConsolePlugin {
  id: string;
  pages?: ConsolePage[];
  /** screens of one record (`?id=`), declared rather than written: see RecordPage */
  recordPages?: RecordPage[];
  menu?: PluginMenuItem[];
  paletteActions?: PaletteAction[];
  /** replace generated screens of one resource: `{ carrier: { show: () => import('./carrier-show') } }` */
  overrides?: Record<string, Partial<Record<ScreenKind, ResourceScreen>>>;
  headerWidgets?: HeaderWidget[];
  notifications?: NotificationSource[];
  rowActions?: RowAction[];
  /** components placed in named zones of the generated screens (ZoneMap) */
  zones?: Partial<ZoneMap>;
}
