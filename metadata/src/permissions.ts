/**
 * Permission codes (SPEC §6): type + camel-cased path, dashes and slashes removed.
 *   Api  + API call path        /device-beacon/list        → ApiDeviceBeaconList
 *   View + route name           /device/device-beacon/edit → ViewDeviceBeaconEdit
 *   Menu + route name / group   /device                    → MenuDevice
 * A route's name is its path without its menu group's prefix, so codes stay short and
 * stable when a group is renamed. Shared by server (Casbin policies) and console (guards).
 */
import type { MenuFile, ResourceDef } from './types';

export type PermissionType = 'Menu' | 'View' | 'Api';

export function camelPath(path: string): string {
  return path
    .split(/[/\-_.]+/)
    .filter(Boolean)
    .map((s) => s.charAt(0).toUpperCase() + s.slice(1))
    .join('');
}

export const apiCode = (apiPath: string): string => 'Api' + camelPath(apiPath);
export const viewCode = (routeName: string): string => 'View' + camelPath(routeName);
export const menuCode = (routeName: string): string => 'Menu' + camelPath(routeName);

/** Strips the longest menu-group prefix from a console path. */
export function routeName(fullPath: string, menu: MenuFile): string {
  let best = '';
  for (const g of menu.groups) {
    if (g.path && (fullPath === g.path || fullPath.startsWith(g.path + '/')) && g.path.length > best.length) {
      best = g.path;
    }
  }
  return fullPath.slice(best.length) || fullPath;
}

export type CrudPage = 'list' | 'create' | 'edit' | 'detail';

/** View code of one generated screen of a resource. */
export function resourceViewCode(res: ResourceDef, page: CrudPage, menu: MenuFile): string {
  const override = res.permissions?.[page === 'list' ? 'view' : page];
  if (override) return override;
  const base = routeName(res.route, menu);
  return viewCode(page === 'list' ? base : `${base}/${page}`);
}

export function resourceMenuCode(res: ResourceDef, menu: MenuFile): string {
  return res.permissions?.menu ?? menuCode(routeName(res.route, menu));
}

/** The prefix of a resource's generated calls: `apiPath` when declared, else `/<name>`. */
export const resourceApiPrefix = (res: Pick<ResourceDef, 'name' | 'apiPath'>): string => res.apiPath ?? `/${res.name}`;

/** Generated call suffixes and their API paths ('' is the single-row "base" call). */
export function resourceApiPath(res: ResourceDef, call: string): string {
  const prefix = resourceApiPrefix(res);
  if (call === 'base') return `${prefix}${res.calls?.basePath ? '/' + res.calls.basePath : ''}`;
  return `${prefix}/${call}`;
}
