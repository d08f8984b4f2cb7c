/**
 * Saves the console asks about before sending (issue 23 item 4): a record that is valid but
 * almost certainly not what was meant. A user with no role and no permission codes of its own
 * can open nothing after signing in (a 403 page), so saving one asks first.
 */
import type { ResourceDef } from '@rti/metadata/browser';

const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** The i18n key of what to ask before saving these values, or null to save at once. */
export function saveWarning(resource: ResourceDef, values: Record<string, unknown>): string | null {
  if (resource.name === 'user') {
    const has = (name: string) => resource.fields.some((f) => f.name === name);
    if (!has('roleIds')) return null;
    const grants = ['roleIds', 'pcPermissions', 'pdaPermissions'].filter(has);
    if (grants.every((name) => empty(values[name]))) return 'meta.warning.userWithoutRole';
  }
  return null;
}
