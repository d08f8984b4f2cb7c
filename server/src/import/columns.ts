/**
 * What an import reads, from the resource's `import` definition: its columns as fields, its
 * key (one field, or several whose combination must be new — a config row per carrier code
 * and warehouse), and lookups: columns holding values of a ref target's own fields that
 * together pick the target row (a route by its from and to warehouses), e.g.
 *
 *   "import": { "key": ["carrierCodeId", "routeId"], "columns": ["carrierCodeId", "from", "to", "remark"],
 *               "lookups": { "routeId": { "from": "fromWarehouseId", "to": "toWarehouseId" } } }
 *
 * A lookup column reads like the target field it names (a ref by its label, an enum by its
 * label …) and must be filled. ImportDef types `key` as one field name and has no `lookups`;
 * both are read here as the metadata may declare them (docs/SERVER.md "Imports").
 */
import { fieldLabelKey, type FieldDef, type Metadata, type ResourceDef } from '@rti/metadata';

export interface ImportLookup {
  /** the ref field the lookup fills */
  field: string;
  /** the ref's target resource */
  target: string;
  /** file column → field of the target */
  by: Record<string, string>;
}

export interface ImportPlan {
  /** the file's columns in order, as fields (lookup columns as copies of their target field) */
  fields: FieldDef[];
  /** the key: one field, or several whose combination is unique per organisation */
  key: string[];
  lookups: ImportLookup[];
  /** names of the lookup columns (not fields of the resource: never written) */
  lookupColumns: Set<string>;
}

interface DeclaredImport {
  key: string | string[];
  columns: string[];
  lookups?: Record<string, Record<string, string>>;
}

export function importPlan(res: ResourceDef, meta: Metadata): ImportPlan {
  const def = res.import as unknown as DeclaredImport;
  const lookups: ImportLookup[] = [];
  const lookupFields = new Map<string, FieldDef>();
  for (const [field, by] of Object.entries(def.lookups ?? {})) {
    const ref = res.fields.find((f) => f.name === field)?.ref;
    const target = ref ? meta.resources[ref.resource] : undefined;
    if (!ref || !target) throw new Error(`import lookup ${res.name}.${field}: not a ref field`);
    for (const [column, targetFieldName] of Object.entries(by)) {
      const tf = target.fields.find((f) => f.name === targetFieldName);
      if (!tf) throw new Error(`import lookup ${res.name}.${field}: ${target.name} has no field ${targetFieldName}`);
      lookupFields.set(column, { ...tf, name: column, label: fieldLabelKey(tf), required: true, unique: undefined, default: undefined, readOnly: undefined });
    }
    lookups.push({ field, target: target.name, by });
  }
  const fields = def.columns.map((c) => lookupFields.get(c) ?? res.fields.find((f) => f.name === c)).filter((f): f is FieldDef => Boolean(f));
  return { fields, key: Array.isArray(def.key) ? def.key : [def.key], lookups, lookupColumns: new Set(lookupFields.keys()) };
}
