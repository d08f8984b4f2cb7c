/**
 * Loads and validates the metadata folder: JSON Schema first (shape, typos), then
 * cross-checks between files (refs, enums, menu). Every fault is collected, so one run
 * shows everything to fix; faults read `<file>: <JSON pointer>: <problem>`.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { checkMetadata, type Fault } from './check';
import { checkFlows, resolveFlowKeys } from './flows';
import { VALIDATION_KEYS, flattenLocale, metadataLabelKeys, validationKey } from './labels';
import type { EnumsFile, MenuFile, Metadata, ResourceDef } from './types';

/** The metadata package root (folder holding resources/, enums.json, menu.json). */
export const metadataRoot: string = fileURLToPath(new URL('..', import.meta.url));

/** One fault: file relative to the metadata folder, JSON pointer ("/" = whole file), problem. */
export type MetadataFault = Fault;

export class MetadataError extends Error {
  constructor(readonly faults: MetadataFault[]) {
    super(`metadata has ${faults.length} fault${faults.length === 1 ? '' : 's'}:\n` + faults.map(formatFault).join('\n'));
    this.name = 'MetadataError';
  }
}

export const formatFault = (f: MetadataFault): string => `${f.file}: ${f.pointer}: ${f.problem}`;

export const LOCALES = ['en-US', 'zh-CN', 'ja-JP'] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * The plugins folder beside a metadata folder (`<dir>/../plugins`): each `plugins/<id>/metadata/`
 * found there is part of the metadata (resources, enums, menu entries, locales).
 */
export const pluginsDirOf = (dir: string): string => join(dir, '..', 'plugins');

type SchemaName = 'resource' | 'enums' | 'menu' | 'menuFragment';
let validators: Record<SchemaName, ValidateFunction> | undefined;

function getValidators(): Record<SchemaName, ValidateFunction> {
  if (!validators) {
    const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
    const read = (n: string) => JSON.parse(readFileSync(join(metadataRoot, 'schema', `${n}.schema.json`), 'utf8'));
    // a plugin's menu.json: the same items; a group it adds needs path and label, a group of
    // metadata/menu.json it adds items to is named by its key alone (checked when merged)
    const fragment = read('menu');
    fragment.$id = fragment.$id.replace('menu.schema', 'menu-fragment.schema');
    fragment.properties.groups.minItems = 0;
    fragment.properties.groups.items.required = ['key', 'items'];
    validators = {
      resource: ajv.compile(read('resource')),
      enums: ajv.compile(read('enums')),
      menu: ajv.compile(read('menu')),
      menuFragment: ajv.compile(fragment),
    };
  }
  return validators;
}

/** Ajv errors → faults; anyOf branches are folded into one line per location. */
function schemaFaults(file: string, errors: ErrorObject[] | null | undefined): MetadataFault[] {
  const all = errors ?? [];
  const anyOfs = all.filter((e) => e.keyword === 'anyOf');
  const out: MetadataFault[] = [];
  for (const e of all) {
    if (anyOfs.some((a) => a !== e && e.schemaPath.startsWith(a.schemaPath + '/'))) continue;
    let pointer = e.instancePath || '/';
    let problem: string;
    switch (e.keyword) {
      case 'additionalProperties':
        pointer = `${e.instancePath}/${(e.params as { additionalProperty: string }).additionalProperty}`;
        problem = 'unknown property';
        break;
      case 'required':
        problem = `missing required property "${(e.params as { missingProperty: string }).missingProperty}"`;
        break;
      case 'enum':
        problem = `must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
        break;
      case 'anyOf': {
        const branches = all.filter((b) => b !== e && b.schemaPath.startsWith(e.schemaPath + '/'));
        problem = branches
          .map((b) => (b.keyword === 'enum' ? `one of ${(b.params as { allowedValues: unknown[] }).allowedValues.join(', ')}` : b.message))
          .join(', or ');
        problem = `must be ${problem.replace(/^must /, '').replace(/, or must /g, ', or ')}`;
        break;
      }
      default:
        problem = e.message ?? e.keyword;
    }
    out.push({ file, pointer, problem });
  }
  return out;
}

interface Parsed {
  ok: boolean;
  value: unknown;
}

function readJson(dir: string, abs: string, faults: MetadataFault[]): Parsed {
  const file = relPath(dir, abs);
  if (!existsSync(abs)) {
    faults.push({ file, pointer: '/', problem: 'file is missing' });
    return { ok: false, value: undefined };
  }
  try {
    return { ok: true, value: JSON.parse(readFileSync(abs, 'utf8')) };
  } catch (err) {
    faults.push({ file, pointer: '/', problem: `malformed JSON: ${(err as Error).message}` });
    return { ok: false, value: undefined };
  }
}

/** Groups faults by file (stable: within a file, schema faults first, in document order). */
const sortByFile = (faults: MetadataFault[]): MetadataFault[] =>
  faults
    .map((f, i) => ({ f, i }))
    .sort((a, b) => a.f.file.localeCompare(b.f.file) || a.i - b.i)
    .map(({ f }) => f);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const relPath = (dir: string, abs: string): string => relative(dir, abs).split(sep).join('/');

function validate(name: SchemaName, file: string, value: unknown, faults: MetadataFault[]): boolean {
  const found = validateDocument(name, file, value);
  faults.push(...found);
  return found.length === 0;
}

/** Schema faults of one document (a resource, enums.json, menu.json or a plugin's menu.json), e.g. a run-time overlay. */
export function validateDocument(kind: SchemaName, file: string, value: unknown): MetadataFault[] {
  const v = getValidators()[kind];
  return v(value) ? [] : schemaFaults(file, v.errors);
}

/** The metadata folders of plugins: `plugins/<id>/metadata/`, by plugin id. */
export function pluginMetadataDirs(pluginsDir: string): { id: string; dir: string }[] {
  if (!existsSync(pluginsDir)) return [];
  return readdirSync(pluginsDir)
    .sort()
    .map((id) => ({ id, dir: join(pluginsDir, id, 'metadata') }))
    .filter((p) => existsSync(p.dir) && statSync(p.dir).isDirectory());
}

/** Which plugin declared what, kept beside a loaded Metadata (not part of what is served). */
interface Origins {
  /** plugin id → its resources, enums and menu items (for locale faults naming its files) */
  plugins: Map<string, Metadata>;
}
const originsOf = new WeakMap<Metadata, Origins>();

/**
 * Reads `resources/<module>/<name>.json`, `enums.json` and `menu.json` under `dir`, and
 * every plugin's `plugins/<id>/metadata/` (`resources/*.json`, `enums.json`, `menu.json`)
 * beside it, validates them with the same schemas and cross-checks and returns the merged
 * metadata. Throws MetadataError listing every fault; faults in a plugin's files name them
 * as `plugins/<id>/metadata/…`.
 */
export function loadMetadata(dir: string = metadataRoot, pluginsDir: string = pluginsDirOf(dir)): Metadata {
  const faults: MetadataFault[] = [];

  const enumsRead = readJson(dir, join(dir, 'enums.json'), faults);
  const enumsOk = enumsRead.ok && validate('enums', 'enums.json', enumsRead.value, faults);
  const menuRead = readJson(dir, join(dir, 'menu.json'), faults);
  const menuOk = menuRead.ok && validate('menu', 'menu.json', menuRead.value, faults);

  const resources: Record<string, ResourceDef> = {};
  const files: Record<string, string> = {};
  const broken = new Set<string>();

  /** One resource file; `folder` is its module folder, undefined for a plugin's flat resources/. */
  const readResource = (root: string, abs: string, folder: string | undefined, into: Record<string, ResourceDef>) => {
    const file = relPath(root, abs);
    const base = abs.split(sep).pop()!.slice(0, -'.json'.length);
    const read = readJson(root, abs, faults);
    // A file that fails the schema still takes part in the cross-checks (when its
    // basic shape allows), so one run lists every fault and references to it do not
    // cascade into "unknown resource" faults.
    const valid = read.ok && validate('resource', file, read.value, faults);
    const res = read.value as ResourceDef;
    if (!valid && !(isObject(res) && typeof res.name === 'string' && Array.isArray(res.fields) && res.fields.every(isObject))) {
      broken.add(base);
      return;
    }
    if (res.name !== base) faults.push({ file, pointer: '/name', problem: `"${res.name}" must equal the file name "${base}"` });
    if (folder !== undefined && res.module !== folder)
      faults.push({ file, pointer: '/module', problem: `"${res.module}" must equal the folder name "${folder}"` });
    if (resources[res.name]) {
      faults.push({ file, pointer: '/name', problem: `resource "${res.name}" is already declared in ${files[res.name]}` });
      return;
    }
    resources[res.name] = res;
    into[res.name] = res;
    files[res.name] = file;
  };

  const resDir = join(dir, 'resources');
  if (!existsSync(resDir)) faults.push({ file: 'resources', pointer: '/', problem: 'folder is missing' });
  else {
    for (const entry of readdirSync(resDir).sort()) {
      const moduleDir = join(resDir, entry);
      if (!statSync(moduleDir).isDirectory()) {
        if (entry.endsWith('.json')) faults.push({ file: relPath(dir, moduleDir), pointer: '/', problem: 'resource files belong in resources/<module>/' });
        continue;
      }
      for (const name of readdirSync(moduleDir).sort()) if (name.endsWith('.json')) readResource(dir, join(moduleDir, name), entry, {});
    }
  }

  const enums: EnumsFile = enumsOk ? { ...(enumsRead.value as EnumsFile) } : {};
  const enumFiles: Record<string, string> = Object.fromEntries(Object.keys(enums).map((n) => [n, 'enums.json']));
  const menu: MenuFile = menuOk ? structuredClone(menuRead.value as MenuFile) : { groups: [] };
  let pluginsOk = true;
  const origins: Origins = { plugins: new Map() };
  /** merged-menu pointer prefix (`/groups/8/items/13`) → the plugin file and pointer it came from */
  const menuPlaces: { merged: string; file: string; pointer: string }[] = [];

  // plugins/<id>/metadata/: faults name files relative to the folder holding metadata/ and plugins/
  const top = join(dir, '..');
  for (const { id, dir: pdir } of pluginMetadataDirs(pluginsDir)) {
    const own: Metadata = { resources: {}, enums: {}, menu: { groups: [] } };
    origins.plugins.set(id, own);
    const prDir = join(pdir, 'resources');
    if (existsSync(prDir)) {
      for (const entry of readdirSync(prDir).sort()) {
        const abs = join(prDir, entry);
        if (statSync(abs).isDirectory()) {
          for (const name of readdirSync(abs).sort()) if (name.endsWith('.json')) readResource(top, join(abs, name), entry, own.resources);
        } else if (entry.endsWith('.json')) readResource(top, abs, undefined, own.resources);
      }
    }
    const enumsAbs = join(pdir, 'enums.json');
    if (existsSync(enumsAbs)) {
      const file = relPath(top, enumsAbs);
      const read = readJson(top, enumsAbs, faults);
      if (!(read.ok && validate('enums', file, read.value, faults))) pluginsOk = false;
      else
        for (const [name, values] of Object.entries(read.value as EnumsFile)) {
          if (enumFiles[name]) faults.push({ file, pointer: `/${name}`, problem: `enum "${name}" is already declared in ${enumFiles[name]}` });
          else {
            enums[name] = values;
            own.enums[name] = values;
            enumFiles[name] = file;
          }
        }
    }
    // values a module adds to an enumeration declared elsewhere (a customer report's task name
    // in taskName): same schema as enums.json; a value or name the enumeration holds is a fault
    const extraAbs = join(pdir, 'enum-values.json');
    if (existsSync(extraAbs)) {
      const file = relPath(top, extraAbs);
      const read = readJson(top, extraAbs, faults);
      if (!(read.ok && validate('enums', file, read.value, faults))) pluginsOk = false;
      else
        for (const [name, values] of Object.entries(read.value as EnumsFile)) {
          const into = enums[name] ? [...enums[name]] : undefined;
          if (!into) {
            faults.push({ file, pointer: `/${name}`, problem: `enum "${name}" is not declared (enum-values.json adds values to an existing enum)` });
            continue;
          }
          values.forEach((v, i) => {
            const clash = into.find((e) => String(e.value) === String(v.value) || e.label === v.label);
            if (clash)
              faults.push({
                file,
                pointer: `/${name}/${i}`,
                problem: `enum "${name}" already has ${String(clash.value)} (${clash.label}), declared in ${enumFiles[name]}`,
              });
            else into.push(v);
          });
          enums[name] = into;
          own.enums[name] = values;
        }
    }
    const menuAbs = join(pdir, 'menu.json');
    if (existsSync(menuAbs)) {
      const file = relPath(top, menuAbs);
      const read = readJson(top, menuAbs, faults);
      if (!(read.ok && validate('menuFragment', file, read.value, faults))) pluginsOk = false;
      else
        (read.value as MenuFile).groups.forEach((g, i) => {
          const existing = menu.groups.find((m) => m.key === g.key);
          if (existing) {
            // items added to a group of metadata/menu.json (or of an earlier plugin) come after its own
            const extra = ['path', 'label', 'icon'].filter(
              (k) => k in g && (g as unknown as Record<string, unknown>)[k] !== (existing as unknown as Record<string, unknown>)[k],
            );
            if (extra.length)
              faults.push({ file, pointer: `/groups/${i}`, problem: `group "${g.key}" exists already: give its key and items only (not ${extra.join(', ')})` });
            const gi = menu.groups.indexOf(existing);
            g.items.forEach((_, ii) =>
              menuPlaces.push({ merged: `/groups/${gi}/items/${existing.items.length + ii}`, file, pointer: `/groups/${i}/items/${ii}` }),
            );
            existing.items.push(...g.items);
          } else if (g.path === undefined || g.label === undefined) {
            faults.push({ file, pointer: `/groups/${i}`, problem: `a new menu group "${g.key}" needs a path and a label` });
          } else {
            menuPlaces.push({ merged: `/groups/${menu.groups.length}`, file, pointer: `/groups/${i}` });
            menu.groups.push(g);
          }
          own.menu.groups.push({ ...g, label: g.label ?? menu.groups.find((m) => m.key === g.key)?.label ?? '' });
        });
    }
  }

  const meta: Metadata = { resources, enums, menu };
  // Cross-checks need both side files; without them they would only repeat the same fault.
  if (enumsOk && menuOk && pluginsOk) {
    // statuses named by key or group become values first: the checks below see values
    const cross = [...resolveFlowKeys(meta, files), ...checkMetadata(meta, files, broken)];
    if (!faults.length && !cross.length) cross.push(...checkFlows(meta, files));
    // a fault on a menu item a plugin added names the plugin's menu.json
    for (const f of cross) {
      const place = f.file === 'menu.json' && menuPlaces.find((p) => f.pointer === p.merged || f.pointer.startsWith(p.merged + '/'));
      faults.push(place ? { ...f, file: place.file, pointer: place.pointer + f.pointer.slice(place.merged.length) } : f);
    }
  }
  if (faults.length) throw new MetadataError(sortByFile(faults));
  originsOf.set(meta, origins);
  return meta;
}

/** Which file gave each flat key, per locale (metadata/locales or a plugin's locales). */
const localeOrigins = new WeakMap<Record<Locale, Record<string, unknown>>, { files: Record<Locale, Record<string, string>>; plugins: Map<string, string> }>();

const deepMerge = (into: Record<string, unknown>, from: Record<string, unknown>): void => {
  for (const [k, v] of Object.entries(from)) {
    if (isObject(v) && isObject(into[k])) deepMerge(into[k] as Record<string, unknown>, v);
    else into[k] = isObject(v) ? structuredClone(v) : v;
  }
};

/**
 * The three locale trees `{ 'en-US', 'zh-CN', 'ja-JP' }`: metadata/locales/<locale>.json with
 * every plugin's `plugins/<id>/metadata/locales/<locale>.json` merged in. A plugin holds its
 * module's labels; a key already given by metadata/locales or another plugin is a fault.
 */
export function loadLocales(dir: string = metadataRoot, pluginsDir: string = pluginsDirOf(dir)): Record<Locale, Record<string, unknown>> {
  const faults: MetadataFault[] = [];
  const out = {} as Record<Locale, Record<string, unknown>>;
  const origin = { files: {} as Record<Locale, Record<string, string>>, plugins: new Map<string, string>() };
  const top = join(dir, '..');
  const plugins = pluginMetadataDirs(pluginsDir).filter((p) => existsSync(join(p.dir, 'locales')));
  for (const locale of LOCALES) {
    const read = (root: string, abs: string): Record<string, unknown> | undefined => {
      const file = relPath(root, abs);
      const r = readJson(root, abs, faults);
      if (!r.ok) return undefined;
      if (!isObject(r.value)) {
        faults.push({ file, pointer: '/', problem: 'must be an object' });
        return undefined;
      }
      return r.value;
    };
    const core = read(dir, join(dir, 'locales', `${locale}.json`));
    if (!core) continue;
    const files: Record<string, string> = {};
    for (const key of Object.keys(flattenLocale(core))) files[key] = `locales/${locale}.json`;
    const tree = structuredClone(core);
    for (const p of plugins) {
      const abs = join(p.dir, 'locales', `${locale}.json`);
      const own = read(top, abs);
      if (!own) continue;
      const file = relPath(top, abs);
      origin.plugins.set(p.id, relPath(top, join(p.dir, 'locales')));
      for (const key of Object.keys(flattenLocale(own))) {
        if (files[key]) faults.push({ file, pointer: '/' + key.split('.').join('/'), problem: `"${key}" is already given by ${files[key]}` });
        else files[key] = file;
      }
      deepMerge(tree, own);
    }
    out[locale] = tree;
    origin.files[locale] = files;
  }
  if (faults.length) throw new MetadataError(faults);
  localeOrigins.set(out, origin);
  return out;
}

/**
 * Faults in the locale files against the metadata: every key the metadata refers to (and
 * every validation template) must exist in every locale, and the three files must hold the
 * same keys, so no screen ever shows a raw key in one language only.
 */
export function checkLocales(meta: Metadata, locales: Record<Locale, Record<string, unknown>>): MetadataFault[] {
  const faults: MetadataFault[] = [];
  const flat = Object.fromEntries(LOCALES.map((l) => [l, flattenLocale(locales[l])])) as Record<Locale, Record<string, string>>;
  const needed = new Set([...metadataLabelKeys(meta), ...VALIDATION_KEYS.map(validationKey)]);
  const pointer = (key: string) => '/' + key.split('.').join('/');
  // keys given by a plugin, or needed only by a plugin's metadata, are faults of its locale files
  const origin = localeOrigins.get(locales);
  const pluginOf = new Map<string, string>();
  const coreKeys = new Set<string>();
  const origins = originsOf.get(meta);
  if (origins) {
    const pluginKeys = new Map<string, string>();
    for (const [id, own] of origins.plugins) for (const k of metadataLabelKeys(own)) if (!pluginKeys.has(k)) pluginKeys.set(k, id);
    const core: Metadata = {
      resources: Object.fromEntries(Object.entries(meta.resources).filter(([n]) => ![...origins.plugins.values()].some((o) => o.resources[n]))),
      enums: Object.fromEntries(Object.entries(meta.enums).filter(([n]) => ![...origins.plugins.values()].some((o) => o.enums[n]))),
      menu: { groups: [] },
    };
    for (const k of metadataLabelKeys(core)) coreKeys.add(k);
    for (const [k, id] of pluginKeys) if (!coreKeys.has(k)) pluginOf.set(k, id);
  }
  const fileOf = (locale: Locale, key: string, from?: Locale): string => {
    const given = from && origin?.files[from]?.[key];
    if (given) return given === `locales/${from}.json` ? `locales/${locale}.json` : given.replace(/[^/]+\.json$/, `${locale}.json`);
    const id = pluginOf.get(key);
    const dirOf = id && origin?.plugins.get(id);
    if (dirOf) return `${dirOf}/${locale}.json`;
    if (id) return `plugins/${id}/metadata/locales/${locale}.json`;
    return origin?.files[locale]?.[key] ?? `locales/${locale}.json`;
  };
  for (const locale of LOCALES) {
    for (const key of needed)
      if (!(key in flat[locale])) faults.push({ file: fileOf(locale, key), pointer: pointer(key), problem: `missing label "${key}" used by the metadata` });
    for (const other of LOCALES) {
      if (other === locale) continue;
      for (const key of Object.keys(flat[other]))
        if (!(key in flat[locale]) && !needed.has(key))
          faults.push({
            file: fileOf(locale, key, other),
            pointer: pointer(key),
            problem: `missing "${key}" (present in ${origin?.files[other]?.[key] ?? `locales/${other}.json`})`,
          });
    }
    for (const [key, value] of Object.entries(flat[locale]))
      if (!value.trim()) faults.push({ file: fileOf(locale, key, locale), pointer: pointer(key), problem: 'empty label' });
  }
  // one line per missing key and file, even when several other locales hold it
  const seen = new Set<string>();
  return faults.filter((f) => {
    const id = `${f.file}${f.pointer}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** Loads metadata and locales and checks them together; throws MetadataError on any fault. */
export function loadAll(
  dir: string = metadataRoot,
  pluginsDir: string = pluginsDirOf(dir),
): { meta: Metadata; locales: Record<Locale, Record<string, unknown>> } {
  const meta = loadMetadata(dir, pluginsDir);
  const locales = loadLocales(dir, pluginsDir);
  const faults = checkLocales(meta, locales);
  if (faults.length) throw new MetadataError(faults);
  return { meta, locales };
}
