import type { ResourceDef } from '@rti/metadata';

/** deviceModelId → device_model_id, device-beacon → device_beacon */
export const snakeCase = (s: string): string =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s.]+/g, '_')
    .toLowerCase();

export const tableName = (res: ResourceDef): string => res.table ?? snakeCase(res.name);

/** Column holding the owning organisation, or null for platform-wide resources. */
export function orgFieldOf(res: ResourceDef): string | null {
  if (res.orgField) return res.orgField;
  return res.orgScoped ? 'orgId' : null;
}

/** Index names stay under MySQL's 64-character limit and are stable across runs. */
export function indexName(table: string, columns: string[], unique: boolean): string {
  const name = `${unique ? 'uq' : 'ix'}_${table}_${columns.join('_')}`;
  if (name.length <= 60) return name;
  let h = 0;
  for (const ch of name) h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0;
  return `${name.slice(0, 51)}_${h.toString(36)}`;
}
