/**
 * The permission catalogue: every Menu/View/Api code of the product, derived (SPEC §6) from
 * the metadata (menu groups, menu pages, resource screens) and from the call registry (one Api
 * code per registered call — generated, account and plugin calls alike), so a new resource
 * or plugin call appears here without code changes.
 */
import {
  menuCode,
  resourceApiPrefix,
  resourceMenuCode,
  resourceTransitions,
  resourceViewCode,
  routeName,
  transitionLabelKey,
  viewCode,
  type CrudPage,
  type Metadata,
  type MenuItem,
  type ResourceDef,
} from '@rti/metadata';
import { callPermission } from '../http/registry';
import type { CallDef, Language } from '../http/types';
import { msg } from './messages';

export const PermissionType = { menu: 10, view: 20, api: 30 } as const;

export interface PermissionNode {
  code: string;
  type: 10 | 20 | 30;
  label: string;
  /** console path (menu/view) or API path (api) */
  path?: string;
  children?: PermissionNode[];
}

export type CatalogueCall = Pick<CallDef, 'path' | 'permission' | 'public' | 'resource' | 'plugin' | 'uses'>;
export type Translate = (lang: Language, key: string, params?: Record<string, unknown>) => string;

const CRUD_PAGES: CrudPage[] = ['list', 'create', 'edit', 'detail'];

/** Which screen of a resource an API call belongs to. */
/** The call path after the resource's prefix ('' for the base call), or null when it has another prefix. */
function callSuffix(res: ResourceDef, path: string): string | null {
  const p = resourceApiPrefix(res);
  if (path === p) return '';
  return path.startsWith(p + '/') ? path.slice(p.length + 1) : null;
}

function pageOfCall(res: ResourceDef, path: string): CrudPage {
  // the create form asks its defaults call (metadata form.defaultsFrom): ticking the create screen grants it
  if (res.form?.defaultsFrom?.call === path) return 'create';
  const rest = callSuffix(res, path);
  // the detail page shows the timeline of a record's steps: ticking the detail screen grants it
  if (rest === '' || rest === 'get' || rest === 'timeline') return 'detail';
  if (rest === 'create') return 'create';
  if (rest === 'update') return 'edit';
  return 'list';
}

const API_VERBS: Record<string, string> = {
  list: 'list',
  '': 'base',
  get: 'base',
  create: 'create',
  update: 'update',
  delete: 'delete',
  all: 'all',
  export: 'export',
  import: 'import',
  'import/status': 'importStatus',
  'status/update': 'statusUpdate',
  updatestatus: 'statusUpdate',
  timeline: 'timeline',
};

function resourceOfCall(resources: ResourceDef[], path: string): ResourceDef | undefined {
  let best: ResourceDef | undefined;
  for (const r of resources) {
    const p = resourceApiPrefix(r);
    if ((path === p || path.startsWith(p + '/')) && (!best || p.length > resourceApiPrefix(best).length)) best = r;
  }
  return best;
}

export interface Catalogue {
  /** every code, flat */
  codes: Set<string>;
  /** the tree in one language */
  tree(lang: Language): PermissionNode[];
  /**
   * View code of a plugin page → Api codes its screen calls that the tree shows elsewhere (a
   * call two pages make sits under the first; a picker's resource call under its resource):
   * holding the page's View code grants them, so a page never needs codes its node lacks.
   */
  implied: Map<string, string[]>;
}

export function buildCatalogue(meta: Metadata, calls: CatalogueCall[], translate: Translate): Catalogue {
  const resources = Object.values(meta.resources);
  const coded = calls
    .map((c) => ({ path: c.path, resource: c.resource, plugin: c.plugin, uses: c.uses, code: callPermission(c as CallDef) }))
    .filter(
      (c): c is { path: string; resource: string | undefined; plugin: string | undefined; uses: readonly string[] | undefined; code: string } => !!c.code,
    );

  // calls grouped by the resource whose prefix they carry
  const callsByResource = new Map<string, Array<{ path: string; code: string }>>();
  const otherCalls: Array<{ path: string; code: string; plugin?: string; uses?: readonly string[] }> = [];
  for (const c of coded) {
    const res = (c.resource && meta.resources[c.resource]) || resourceOfCall(resources, c.path);
    if (res) {
      const list = callsByResource.get(res.name) ?? [];
      list.push(c);
      callsByResource.set(res.name, list);
    } else otherCalls.push(c);
  }

  const build = (lang: Language): PermissionNode[] => {
    const tr = (key: string) => translate(lang, key);
    const placed = new Set<string>();
    const placedCalls = new Set<string>();
    // A plugin's calls without a resource belong to the page the plugin registers (menu item
    // `page` = plugin id) and to pages declaring them in `calls`; resource calls stay with their resource.
    const pluginCalls = (item: MenuItem) => (item.page ? otherCalls.filter((c) => c.plugin === item.page || item.calls?.includes(c.path)) : []);

    const apiNode = (res: ResourceDef | null, c: { path: string; code: string }): PermissionNode => {
      const suffix = res ? callSuffix(res, c.path) : null;
      const verb = suffix === null ? undefined : API_VERBS[suffix];
      // a workflow step is named by its button's label
      const step = !verb && res ? resourceTransitions(res).find((t) => t.path === c.path) : undefined;
      const label = verb ? `${msg(lang, `permission.api.${verb}`)} (${c.path})` : step ? `${tr(transitionLabelKey(step))} (${c.path})` : c.path;
      return { code: c.code, type: 30, path: c.path, label };
    };

    const resourceNode = (res: ResourceDef): PermissionNode => {
      placed.add(res.name);
      const name = tr(res.label ?? `resources.${res.name}`);
      const resCalls = callsByResource.get(res.name) ?? [];
      const views = CRUD_PAGES.map<PermissionNode>((page) => ({
        code: resourceViewCode(res, page, meta.menu),
        type: 20,
        path: page === 'list' ? res.route : `${res.route}/${page}`,
        label: page === 'list' ? name : msg(lang, `permission.view.${page}`, { name }),
        children: resCalls.filter((c) => pageOfCall(res, c.path) === page).map((c) => apiNode(res, c)),
      }));
      return { code: resourceMenuCode(res, meta.menu), type: 10, path: res.route, label: name, children: views };
    };

    const itemNode = (item: MenuItem): PermissionNode => {
      const res = item.resource ? meta.resources[item.resource] : resources.find((r) => r.route === item.path);
      if (res && !placed.has(res.name)) {
        const node = resourceNode(res);
        if (item.children?.length) node.children!.push(...item.children.map(itemNode));
        return node;
      }
      const name = routeName(item.path, meta.menu);
      const label = tr(item.label);
      const sub = item.children?.map(itemNode) ?? [];
      const calls = pluginCalls(item).map((c) => apiNode(null, c));
      calls.forEach((c) => placedCalls.add(c.path!));
      const view: PermissionNode = { code: viewCode(name), type: 20, path: item.path, label, ...(calls.length ? { children: calls } : {}) };
      // Hidden routes (create/edit/detail sub-pages) are not menu items: a View code only (SPEC §6).
      if (item.hidden) return sub.length ? { ...view, children: [...(view.children ?? []), ...sub] } : view;
      return { code: menuCode(name), type: 10, path: item.path, label, children: [view, ...sub] };
    };

    const tree: PermissionNode[] = meta.menu.groups.map((g) => ({
      code: menuCode(g.path || g.key),
      type: 10 as const,
      path: g.path || undefined,
      label: tr(g.label),
      children: g.items.map(itemNode),
    }));
    // resources no menu item points at still get their codes, under their module's group
    for (const res of resources) {
      if (placed.has(res.name)) continue;
      let group = tree.find((_, i) => meta.menu.groups[i].key === res.module);
      if (!group) {
        group = { code: menuCode(res.module), type: 10, label: tr(`menu.${res.module}`), children: [] };
        tree.push(group);
      }
      group.children!.push(resourceNode(res));
    }
    const rest = otherCalls.filter((c) => !placedCalls.has(c.path));
    if (rest.length) {
      tree.push({ code: '', type: 30, label: msg(lang, 'permission.otherCalls'), children: rest.map((c) => apiNode(null, c)) });
    }
    return dedupe(tree);
  };

  const codes = new Set<string>();
  const walk = (nodes: PermissionNode[]) => {
    for (const n of nodes) {
      if (n.code) codes.add(n.code);
      if (n.children) walk(n.children);
    }
  };
  walk(build('en-US'));

  const implied = impliedByPages(meta, coded, otherCalls, build('en-US'));
  const cache = new Map<Language, PermissionNode[]>();
  return {
    codes,
    implied,
    tree(lang) {
      let t = cache.get(lang);
      if (!t) cache.set(lang, (t = build(lang)));
      return t;
    },
  };
}

/** Every call code a plugin page's screen makes (its plugin's and its declared `calls`), minus those under its own node. */
function impliedByPages(
  meta: Metadata,
  coded: Array<{ path: string; code: string; uses?: readonly string[] }>,
  otherCalls: Array<{ path: string; code: string; plugin?: string; uses?: readonly string[] }>,
  tree: PermissionNode[],
): Map<string, string[]> {
  const viewNodes = new Map<string, PermissionNode>();
  const walk = (nodes: PermissionNode[]) => {
    for (const n of nodes) {
      if (n.type === 20) viewNodes.set(n.code, n);
      if (n.children) walk(n.children);
    }
  };
  walk(tree);
  const out = new Map<string, string[]>();
  const visit = (items: MenuItem[]) => {
    for (const item of items) {
      if (item.children) visit(item.children);
      if (!item.page || item.public) continue;
      const view = viewCode(routeName(item.path, meta.menu));
      const own = new Set((viewNodes.get(view)?.children ?? []).map((c) => c.code));
      const made = [...otherCalls.filter((c) => c.plugin === item.page), ...coded.filter((c) => item.calls?.includes(c.path))];
      // and the calls those make on the same screen (a report's parameter pickers)
      const used = new Set(made.flatMap((c) => c.uses ?? []));
      const wanted = [...made, ...coded.filter((c) => used.has(c.path))];
      const elsewhere = [...new Set(wanted.map((c) => c.code))].filter((code) => !own.has(code));
      if (elsewhere.length) out.set(view, elsewhere);
    }
  };
  for (const g of meta.menu.groups) visit(g.items);
  return out;
}

/**
 * A code appears once in the tree (first place wins), so checkboxes stay unambiguous; a
 * repeated node gives way to its children (e.g. a one-page group and its page share a code).
 */
function dedupe(tree: PermissionNode[]): PermissionNode[] {
  const seen = new Set<string>();
  const walk = (nodes: PermissionNode[]): PermissionNode[] =>
    nodes.flatMap((n) => {
      const children = n.children ? walk(n.children) : undefined;
      if (n.code && seen.has(n.code)) return children ?? [];
      if (n.code) seen.add(n.code);
      return [children ? { ...n, children } : n];
    });
  return walk(tree);
}

/** The tree narrowed to a code set: nodes outside it go, unless a descendant stays. */
export function narrowTree(tree: PermissionNode[], allowed: Set<string>): PermissionNode[] {
  const out: PermissionNode[] = [];
  for (const n of tree) {
    const children = n.children ? narrowTree(n.children, allowed) : undefined;
    if ((n.code && allowed.has(n.code)) || (children && children.length)) out.push({ ...n, ...(children ? { children } : {}) });
  }
  return out;
}

/** Menu paths (groups and items) for which a code set holds the Menu code: the console narrows its side menu to these. */
export function menuPaths(tree: PermissionNode[], held: Set<string>): string[] {
  const out: string[] = [];
  const walk = (nodes: PermissionNode[]) => {
    for (const n of nodes) {
      if (n.type === 10 && n.path && held.has(n.code)) out.push(n.path);
      if (n.children) walk(n.children);
    }
  };
  walk(tree);
  return out;
}
