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

type SchemaName = 'resource' | 'enums' | 'menu';
let validators: Record<SchemaName, ValidateFunction> | undefined;

function getValidators(): Record<SchemaName, ValidateFunction> {
  if (!validators) {
    const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
    const compile = (n: SchemaName) => ajv.compile(JSON.parse(readFileSync(join(metadataRoot, 'schema', `${n}.schema.json`), 'utf8')));
    validators = { resource: compile('resource'), enums: compile('enums'), menu: compile('menu') };
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
        problem = branches.map((b) => (b.keyword === 'enum' ? `one of ${(b.params as { allowedValues: unknown[] }).allowedValues.join(', ')}` : b.message)).join(', or ');
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
  faults.map((f, i) => ({ f, i })).sort((a, b) => a.f.file.localeCompare(b.f.file) || a.i - b.i).map(({ f }) => f);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const relPath = (dir: string, abs: string): string => relative(dir, abs).split(sep).join('/');

function validate(name: SchemaName, file: string, value: unknown, faults: MetadataFault[]): boolean {
  const found = validateDocument(name, file, value);
  faults.push(...found);
  return found.length === 0;
}

/** Schema faults of one document (a resource, enums.json or menu.json), e.g. a run-time overlay. */
export function validateDocument(kind: SchemaName, file: string, value: unknown): MetadataFault[] {
  const v = getValidators()[kind];
  return v(value) ? [] : schemaFaults(file, v.errors);
}

/**
 * Reads `resources/<module>/<name>.json`, `enums.json` and `menu.json` under `dir`,
 * validates them and returns the metadata. Throws MetadataError listing every fault.
 */
export function loadMetadata(dir: string = metadataRoot): Metadata {
  const faults: MetadataFault[] = [];

  const enumsRead = readJson(dir, join(dir, 'enums.json'), faults);
  const enumsOk = enumsRead.ok && validate('enums', 'enums.json', enumsRead.value, faults);
  const menuRead = readJson(dir, join(dir, 'menu.json'), faults);
  const menuOk = menuRead.ok && validate('menu', 'menu.json', menuRead.value, faults);

  const resources: Record<string, ResourceDef> = {};
  const files: Record<string, string> = {};
  const broken = new Set<string>();
  const resDir = join(dir, 'resources');
  if (!existsSync(resDir)) faults.push({ file: 'resources', pointer: '/', problem: 'folder is missing' });
  else {
    for (const entry of readdirSync(resDir).sort()) {
      const moduleDir = join(resDir, entry);
      if (!statSync(moduleDir).isDirectory()) {
        if (entry.endsWith('.json')) faults.push({ file: relPath(dir, moduleDir), pointer: '/', problem: 'resource files belong in resources/<module>/' });
        continue;
      }
      for (const name of readdirSync(moduleDir).sort()) {
        if (!name.endsWith('.json')) continue;
        const abs = join(moduleDir, name);
        const file = relPath(dir, abs);
        const base = name.slice(0, -'.json'.length);
        const read = readJson(dir, abs, faults);
        // A file that fails the schema still takes part in the cross-checks (when its
        // basic shape allows), so one run lists every fault and references to it do not
        // cascade into "unknown resource" faults.
        const valid = read.ok && validate('resource', file, read.value, faults);
        const res = read.value as ResourceDef;
        if (!valid && !(isObject(res) && typeof res.name === 'string' && Array.isArray(res.fields) && res.fields.every(isObject))) {
          broken.add(base);
          continue;
        }
        if (res.name !== base) faults.push({ file, pointer: '/name', problem: `"${res.name}" must equal the file name "${base}"` });
        if (res.module !== entry) faults.push({ file, pointer: '/module', problem: `"${res.module}" must equal the folder name "${entry}"` });
        if (resources[res.name]) {
          faults.push({ file, pointer: '/name', problem: `resource "${res.name}" is already declared in ${files[res.name]}` });
          continue;
        }
        resources[res.name] = res;
        files[res.name] = file;
      }
    }
  }

  const meta: Metadata = {
    resources,
    enums: enumsOk ? (enumsRead.value as EnumsFile) : {},
    menu: menuOk ? (menuRead.value as MenuFile) : { groups: [] },
  };
  // Cross-checks need both side files; without them they would only repeat the same fault.
  if (enumsOk && menuOk) {
    // statuses named by key or group become values first: the checks below see values
    faults.push(...resolveFlowKeys(meta, files));
    faults.push(...checkMetadata(meta, files, broken));
    if (!faults.length) faults.push(...checkFlows(meta, files));
  }
  if (faults.length) throw new MetadataError(sortByFile(faults));
  return meta;
}

/** The three locale files (metadata/locales/<locale>.json), nested i18next resources. */
export function loadLocales(dir: string = metadataRoot): Record<Locale, Record<string, unknown>> {
  const faults: MetadataFault[] = [];
  const out = {} as Record<Locale, Record<string, unknown>>;
  for (const locale of LOCALES) {
    const file = `locales/${locale}.json`;
    const read = readJson(dir, join(dir, 'locales', `${locale}.json`), faults);
    if (!read.ok) continue;
    if (typeof read.value !== 'object' || read.value === null || Array.isArray(read.value)) {
      faults.push({ file, pointer: '/', problem: 'must be an object' });
      continue;
    }
    out[locale] = read.value as Record<string, unknown>;
  }
  if (faults.length) throw new MetadataError(faults);
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
  for (const locale of LOCALES) {
    const file = `locales/${locale}.json`;
    for (const key of needed) if (!(key in flat[locale])) faults.push({ file, pointer: pointer(key), problem: `missing label "${key}" used by the metadata` });
    for (const other of LOCALES) {
      if (other === locale) continue;
      for (const key of Object.keys(flat[other]))
        if (!(key in flat[locale]) && !needed.has(key)) faults.push({ file, pointer: pointer(key), problem: `missing "${key}" (present in locales/${other}.json)` });
    }
    for (const [key, value] of Object.entries(flat[locale])) if (!value.trim()) faults.push({ file, pointer: pointer(key), problem: 'empty label' });
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
export function loadAll(dir: string = metadataRoot): { meta: Metadata; locales: Record<Locale, Record<string, unknown>> } {
  const meta = loadMetadata(dir);
  const locales = loadLocales(dir);
  const faults = checkLocales(meta, locales);
  if (faults.length) throw new MetadataError(faults);
  return { meta, locales };
}
