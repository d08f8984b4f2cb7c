/**
 * Cross-file checks that JSON Schema cannot express: names that must exist elsewhere,
 * values that must suit their field's type. Pure, so overlays can be checked the same way.
 */
import { isNamedPattern, namedPatterns } from './patterns';
import { resourceApiPath, resourceApiPrefix } from './permissions';
import { STATUS_UPDATE_STEP, numberPatternProblem, transitionApiPath } from './transitions';
import type { EnumsFile, FieldDef, FieldType, MenuGroup, MenuItem, Metadata, ResourceDef, SearchKind } from './types';

export interface Fault {
  /** path relative to the metadata folder, with forward slashes */
  file: string;
  /** JSON pointer inside the file ("/" = the whole document) */
  pointer: string;
  problem: string;
}

/** Columns every row has without declaring them. */
export const IMPLICIT_FIELDS = ['id', 'createdAt', 'updatedAt'] as const;

const SEARCH_TYPES: Record<SearchKind, FieldType[]> = {
  like: ['string', 'text'],
  prefix: ['string'],
  range: ['int', 'decimal', 'date', 'datetime'],
  in: ['string', 'int', 'enum', 'enums', 'ref', 'refs'],
  eq: ['string', 'int', 'decimal', 'bool', 'date', 'enum', 'enums', 'ref', 'refs', 'color'],
};
const FIELD_TYPES: FieldType[] = [
  'string',
  'text',
  'int',
  'decimal',
  'bool',
  'date',
  'datetime',
  'enum',
  'enums',
  'ref',
  'refs',
  'image',
  'file',
  'color',
  'password',
  'json',
  'lnglat',
  'permissions',
];
const UNIQUE_TYPES: FieldType[] = ['string', 'int', 'decimal', 'date', 'datetime', 'enum', 'ref', 'color'];
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Why `value` is not a valid value of `field`, or undefined when it is. */
export function valueProblem(field: FieldDef, value: unknown, enums: EnumsFile): string | undefined {
  const isStr = typeof value === 'string';
  const isNum = typeof value === 'number' && Number.isFinite(value);
  const enumValues = field.enum ? (enums[field.enum] ?? []).map((v) => v.value) : [];
  const inRange = (n: number) =>
    (field.min !== undefined && n < field.min) || (field.max !== undefined && n > field.max)
      ? `must be between ${field.min ?? '-∞'} and ${field.max ?? '∞'}`
      : undefined;
  switch (field.type) {
    case 'string':
    case 'text':
    case 'password': {
      if (!isStr) return 'must be a string';
      if (field.maxLength !== undefined && value.length > field.maxLength) return `is longer than maxLength ${field.maxLength}`;
      if (field.minLength !== undefined && value.length < field.minLength) return `is shorter than minLength ${field.minLength}`;
      if (field.pattern && !(isNamedPattern(field.pattern) ? namedPatterns[field.pattern] : safeRegExp(field.pattern))?.test(value))
        return `does not match pattern ${field.pattern}`;
      return undefined;
    }
    case 'color':
      return isStr && namedPatterns.color.test(value) ? undefined : 'must be a colour like #FAB912';
    case 'int':
      return Number.isInteger(value) ? inRange(value as number) : 'must be an integer';
    case 'decimal':
      return isNum ? inRange(value) : 'must be a number';
    case 'bool':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'date':
      return isStr && DATE_RE.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : 'must be a date YYYY-MM-DD';
    case 'datetime':
      return (isStr && !Number.isNaN(Date.parse(value))) || isNum ? undefined : 'must be an ISO date-time or epoch milliseconds';
    case 'enum':
      return enumValues.includes(value as string | number) ? undefined : `must be one of the values of enum "${field.enum}": ${enumValues.join(', ')}`;
    case 'enums':
      return Array.isArray(value) && value.every((v) => enumValues.includes(v))
        ? undefined
        : `must be a list of values of enum "${field.enum}": ${enumValues.join(', ')}`;
    case 'ref':
      return isStr || Number.isInteger(value) ? undefined : 'must be an id';
    case 'refs':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' || Number.isInteger(v)) ? undefined : 'must be a list of ids';
    case 'image':
    case 'file':
      return isStr || (Array.isArray(value) && value.every((v) => typeof v === 'string')) ? undefined : 'must be a file name or a list of file names';
    case 'permissions':
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? undefined : 'must be a list of permission codes';
    case 'lnglat':
      return Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'number') ? undefined : 'must be [longitude, latitude]';
    case 'json':
      return undefined;
  }
}

function safeRegExp(src: string): RegExp | undefined {
  try {
    return new RegExp(src);
  } catch {
    return undefined;
  }
}

/** Field names of a resource, implicit columns included. */
export function fieldNames(res: ResourceDef): Set<string> {
  const names = new Set<string>(IMPLICIT_FIELDS);
  if (res.orgScoped) names.add(res.orgField ?? 'orgId');
  for (const f of res.fields) names.add(f.name);
  return names;
}

/**
 * `files` maps resource name → file path relative to the metadata folder; `broken` holds
 * names of resource files that could not be read, so references to them are not reported
 * a second time.
 */
export function checkMetadata(meta: Metadata, files: Record<string, string>, broken: ReadonlySet<string> = new Set()): Fault[] {
  const faults: Fault[] = [];
  checkEnums(meta.enums, faults);
  checkMenu(meta, broken, faults);
  const groups = new Map(meta.menu.groups.map((g) => [g.key, g]));
  const taken: Taken = { routes: new Map(), prefixes: new Map() };
  for (const res of Object.values(meta.resources)) {
    try {
      const c = resourceCheck(meta, res, files, broken, faults);
      checkPlacement(c, groups, taken);
      checkFields(c);
      checkNamedFields(c);
      checkImport(c);
      checkRules(c);
      checkChildren(c);
      checkNumber(c);
      checkPrint(c);
      checkTransitions(c);
      checkSharedStatusCalls(c);
      checkFormDefaults(c);
    } catch {
      // A schema-invalid file can be too malformed to check further; its schema faults stand.
    }
  }
  return faults;
}

/** enums.json: unique values and keys; labels under enums.<name>. */
function checkEnums(enums: EnumsFile, faults: Fault[]): void {
  // enums.json: unique values and keys; labels under enums.<name>.
  for (const [name, values] of Object.entries(enums)) {
    const seenValues = new Map<unknown, number>();
    const seenKeys = new Map<string, number>();
    values.forEach((v, i) => {
      const at = (p: string, problem: string) => faults.push({ file: 'enums.json', pointer: `/${name}/${i}/${p}`, problem });
      if (seenValues.has(v.value)) at('value', `duplicate value ${JSON.stringify(v.value)} (also /${name}/${seenValues.get(v.value)})`);
      seenValues.set(v.value, i);
      const prefix = `enums.${name}.`;
      if (!v.label.startsWith(prefix)) at('label', `must start with "${prefix}"`);
      else {
        const key = v.label.slice(prefix.length);
        if (seenKeys.has(key)) at('label', `duplicate key "${key}" (also /${name}/${seenKeys.get(key)})`);
        seenKeys.set(key, i);
      }
    });
  }
}

/** menu.json: items name a resource (at its route) or a page, under their group's path, each path once. */
function checkMenu(meta: Metadata, broken: ReadonlySet<string>, faults: Fault[]): void {
  const { resources, menu } = meta;
  const seenPaths = new Map<string, string>();
  const checkItems = (items: MenuItem[], base: string, groupPath: string) => {
    items.forEach((it, i) => {
      const ptr = `${base}/${i}`;
      const at = (p: string, problem: string) => faults.push({ file: 'menu.json', pointer: `${ptr}${p}`, problem });
      if (it.resource && it.page) at('', 'an item names either a resource or a page, not both');
      if (!it.resource && !it.page) at('', 'an item needs a resource or a page');
      if (it.resource) {
        const res = resources[it.resource];
        if (!res) {
          if (!broken.has(it.resource)) at('/resource', `unknown resource "${it.resource}"`);
        } else if (res.route !== it.path) at('/path', `must equal the route of resource "${it.resource}" (${res.route})`);
      }
      if (groupPath && !it.standalone && it.path !== groupPath && !it.path.startsWith(groupPath + '/'))
        at('/path', `must start with the group path ${groupPath} (or be standalone)`);
      if (seenPaths.has(it.path)) at('/path', `duplicate path ${it.path} (also ${seenPaths.get(it.path)})`);
      seenPaths.set(it.path, ptr);
      if (it.children) checkItems(it.children, `${ptr}/children`, groupPath);
    });
  };
  const seenGroups = new Map<string, number>();
  menu.groups.forEach((g, gi) => {
    if (seenGroups.has(g.key))
      faults.push({ file: 'menu.json', pointer: `/groups/${gi}/key`, problem: `duplicate group key "${g.key}" (also /groups/${seenGroups.get(g.key)})` });
    seenGroups.set(g.key, gi);
    checkItems(g.items, `/groups/${gi}/items`, g.path);
  });
}

/** Routes and API prefixes already claimed, by resource (two resources answering under one prefix would register the same calls twice). */
interface Taken {
  routes: Map<string, string>;
  prefixes: Map<string, string>;
}

/** What every check of one resource file uses: where a fault goes and the resource's fields. */
interface ResourceCheck {
  res: ResourceDef;
  resources: Metadata['resources'];
  enums: EnumsFile;
  broken: ReadonlySet<string>;
  at: (pointer: string, problem: string) => void;
  needField: (pointer: string, name: string | undefined, what: string) => void;
  byName: Map<string, FieldDef>;
  /** the resource's API prefix */
  prefix: string;
  /** the paths of the calls generated for the resource */
  generated: Set<string>;
  /** values must belong to the enumeration of the (enum) field */
  enumValuesOk: (field: string, values: Array<string | number>, pointer: string, single?: boolean) => void;
}

function resourceCheck(meta: Metadata, res: ResourceDef, files: Record<string, string>, broken: ReadonlySet<string>, faults: Fault[]): ResourceCheck {
  const { resources, enums } = meta;
  const file = files[res.name] ?? `resources/${res.module}/${res.name}.json`;
  const at = (pointer: string, problem: string) => faults.push({ file, pointer, problem });
  const names = fieldNames(res);
  const byName = new Map(res.fields.map((f) => [f.name, f]));
  const needField = (pointer: string, name: string | undefined, what: string) => {
    if (name !== undefined && !names.has(name)) at(pointer, `${what} "${name}" is not a field of ${res.name}`);
  };
  const prefix = resourceApiPrefix(res);
  const generated = new Set(
    ['list', '', 'get', 'create', 'update', 'delete', 'all', 'export', 'import', 'import/status', 'import/template', 'status/update', 'save', 'timeline'].map(
      (c) => (c === '' ? prefix : `${prefix}/${c}`),
    ),
  );
  function enumValuesOk(field: string, values: Array<string | number>, pointer: string, single = false): void {
    const f = byName.get(field);
    if (!f?.enum || !enums[f.enum]) return;
    const allowed = enums[f.enum].map((v) => String(v.value));
    values.forEach((v, j) => {
      if (!allowed.includes(String(v))) at(single ? pointer : `${pointer}/${j}`, `${JSON.stringify(v)} is not a value of enum "${f.enum}"`);
    });
  }
  return { res, resources, enums, broken, at, needField, byName, prefix, generated, enumValuesOk };
}

/** The resource's menu group, its route and its API prefix, each claimed once. */
function checkPlacement({ res, at, prefix }: ResourceCheck, groups: Map<string, MenuGroup>, { routes, prefixes }: Taken): void {
  const group = groups.get(res.module);
  if (!group) at('/module', `"${res.module}" is not a menu group key in menu.json (${[...groups.keys()].join(', ')})`);
  else if (group.path && !res.route.startsWith(group.path + '/')) at('/route', `must start with the path of menu group "${res.module}" (${group.path})`);
  if (routes.has(res.route)) at('/route', `route ${res.route} is already used by resource "${routes.get(res.route)}"`);
  routes.set(res.route, res.name);
  if (prefixes.has(prefix)) at(res.apiPath ? '/apiPath' : '/name', `API prefix ${prefix} is already used by resource "${prefixes.get(prefix)}"`);
  prefixes.set(prefix, res.name);
}

/** Each field: its name, type-dependent settings (enum, ref, pattern, bounds, search, …) and default. */
function checkFields({ res, resources, enums, broken, at }: ResourceCheck): void {
  const firstIndex = new Map<string, number>();
  res.fields.forEach((f, i) => {
    const fp = `/fields/${i}`;
    if (firstIndex.has(f.name)) at(`${fp}/name`, `duplicate field name "${f.name}" (also /fields/${firstIndex.get(f.name)})`);
    else firstIndex.set(f.name, i);
    if ((IMPLICIT_FIELDS as readonly string[]).includes(f.name) || (res.orgScoped && f.name === (res.orgField ?? 'orgId')))
      at(`${fp}/name`, `"${f.name}" is a built-in column; do not declare it`);

    if (!FIELD_TYPES.includes(f.type)) return; // reported by the schema; type-dependent checks would only add noise

    const isEnum = f.type === 'enum' || f.type === 'enums';
    if (isEnum && !f.enum) at(fp, `type ${f.type} needs "enum"`);
    if (!isEnum && f.enum) at(`${fp}/enum`, `only enum and enums fields name an enum`);
    if (f.enum && isEnum && !enums[f.enum]) at(`${fp}/enum`, `unknown enum "${f.enum}"`);

    const isRef = f.type === 'ref' || f.type === 'refs';
    if (isRef && !f.ref) at(fp, `type ${f.type} needs "ref"`);
    if (!isRef && f.ref) at(`${fp}/ref`, `only ref and refs fields have "ref"`);
    if (f.ref && isRef) {
      const target = resources[f.ref.resource];
      if (!target) {
        if (!broken.has(f.ref.resource)) at(`${fp}/ref/resource`, `unknown resource "${f.ref.resource}"`);
      } else if (!fieldNames(target).has(f.ref.label)) at(`${fp}/ref/label`, `"${f.ref.label}" is not a field of ${target.name}`);
    }

    if (f.pattern && !isNamedPattern(f.pattern) && !safeRegExp(f.pattern))
      at(`${fp}/pattern`, `neither a named pattern (${Object.keys(namedPatterns).join(', ')}) nor a valid regular expression`);
    if (f.pattern && !['string', 'text', 'password'].includes(f.type)) at(`${fp}/pattern`, `pattern applies to string, text and password fields only`);
    if (f.min !== undefined && f.max !== undefined && f.min > f.max) at(`${fp}/min`, `min ${f.min} is greater than max ${f.max}`);
    if (f.minLength !== undefined && f.maxLength !== undefined && f.minLength > f.maxLength)
      at(`${fp}/minLength`, `minLength ${f.minLength} is greater than maxLength ${f.maxLength}`);
    if (f.readOnly && f.writeOnly) at(`${fp}/writeOnly`, 'a field cannot be both readOnly and writeOnly');
    if (f.readOnly && f.required) at(`${fp}/required`, 'a readOnly field cannot be required (clients never send it)');
    if (f.unique && !UNIQUE_TYPES.includes(f.type)) at(`${fp}/unique`, `type ${f.type} cannot be unique`);
    if (f.search && !SEARCH_TYPES[f.search].includes(f.type))
      at(`${fp}/search`, `search "${f.search}" does not suit type ${f.type} (use it with ${SEARCH_TYPES[f.search].join(', ')})`);
    if ((f.type === 'password' || f.writeOnly) && (f.search || (f.list !== undefined && f.list !== false)))
      at(`${fp}/${f.search ? 'search' : 'list'}`, 'a write-only field cannot be listed or searched');
    if (f.scale !== undefined && f.type !== 'decimal') at(`${fp}/scale`, 'scale applies to decimal fields only');
    if (f.textFrom !== undefined) {
      const source = res.fields.find((x) => x.name === f.textFrom);
      if (f.type !== 'string' && f.type !== 'text') at(`${fp}/textFrom`, 'textFrom applies to string and text fields only');
      else if (source?.type !== 'json') at(`${fp}/textFrom`, `"${f.textFrom}" is not a json field of ${res.name}`);
    }
    if (f.default !== undefined && !(f.enum && !enums[f.enum])) {
      const problem = valueProblem(f, f.default, enums);
      if (problem) at(`${fp}/default`, `default ${JSON.stringify(f.default)} ${problem}`);
    }
  });
}

/** The resource's settings that name one of its fields (title, warehouse, tree, sort, indexes). */
function checkNamedFields({ res, at, needField }: ResourceCheck): void {
  needField('/titleField', res.titleField, 'titleField');
  if (Array.isArray(res.warehouseField)) res.warehouseField.forEach((w, i) => needField(`/warehouseField/${i}`, w, 'warehouseField'));
  else needField('/warehouseField', res.warehouseField, 'warehouseField');
  needField('/paletteSearch', res.paletteSearch, 'paletteSearch');
  if (res.tree) {
    needField('/tree/keyField', res.tree.keyField, 'tree.keyField');
    needField('/tree/parentField', res.tree.parentField, 'tree.parentField');
    needField('/tree/scopeField', res.tree.scopeField, 'tree.scopeField');
  }
  needField('/listGroupBy', res.listGroupBy, 'listGroupBy');
  if (res.orgField !== undefined && !res.fields.some((f) => f.name === res.orgField) && res.orgField !== 'id')
    at('/orgField', `orgField "${res.orgField}" is not a field of ${res.name}`);
  if (res.defaultSort) needField('/defaultSort', res.defaultSort.replace(/^-/, ''), 'defaultSort');
  res.indexes?.forEach((cols, i) => cols.forEach((c, j) => needField(`/indexes/${i}/${j}`, c, 'index column')));
}

/** The import definition: key, columns, lookups, error catalogue and reason codes. */
function checkImport({ res, resources, enums, at, needField, byName }: ResourceCheck): void {
  if (res.import) {
    const imp = res.import;
    const keys = Array.isArray(imp.key) ? imp.key : [imp.key];
    keys.forEach((k, i) => needField(Array.isArray(imp.key) ? `/import/key/${i}` : '/import/key', k, 'import key'));
    // a lookup column holds a value of the ref target's field (not a field of this resource)
    const lookupColumns = new Map<string, { field: string; targetField: string }>();
    for (const [field, by] of Object.entries(imp.lookups ?? {})) {
      const f = byName.get(field);
      const target = f?.ref ? resources[f.ref.resource] : undefined;
      if (!f || f.type !== 'ref' || !target) {
        at(`/import/lookups/${field}`, `"${field}" is not a ref field of ${res.name}`);
        continue;
      }
      for (const [column, targetField] of Object.entries(by)) {
        if (!target.fields.some((tf) => tf.name === targetField)) at(`/import/lookups/${field}/${column}`, `${target.name} has no field "${targetField}"`);
        if (byName.has(column)) at(`/import/lookups/${field}/${column}`, `lookup column "${column}" must not be a field of ${res.name}`);
        lookupColumns.set(column, { field, targetField });
      }
    }
    imp.columns.forEach((c, i) => {
      if (!lookupColumns.has(c)) needField(`/import/columns/${i}`, c, 'import column');
    });
    for (const column of lookupColumns.keys()) if (!imp.columns.includes(column)) at(`/import/lookups`, `lookup column "${column}" must be one of the columns`);
    // a key field is read from the file, or filled by a lookup
    for (const k of keys)
      if (!imp.columns.includes(k) && !imp.lookups?.[k]) at('/import/key', `import key "${k}" must be one of the columns or filled by a lookup`);
    if (res.import.errors && !enums[res.import.errors]) at('/import/errors', `unknown error catalogue "${res.import.errors}" (an enum in enums.json)`);
    for (const [column, codes] of Object.entries(res.import.codes ?? {})) {
      if (!res.import.columns.includes(column)) at(`/import/codes/${column}`, `"${column}" is not an import column`);
      const catalogue = res.import.errors ? enums[res.import.errors] : undefined;
      for (const [problem, code] of Object.entries(codes)) {
        if (!catalogue) at(`/import/codes/${column}/${problem}`, 'reason codes need an "errors" catalogue');
        else if (!catalogue.some((e) => e.value === code)) at(`/import/codes/${column}/${problem}`, `${code} is not a value of "${res.import.errors}"`);
      }
    }
  }
}

/** rules: status values that forbid edit and delete, the status update's transitions, field comparisons. */
function checkRules({ res, enums, at, needField, byName }: ResourceCheck): void {
  const checkStatusRules = (kind: 'editForbidden' | 'deleteForbidden') =>
    res.rules?.[kind]?.forEach((r, i) => {
      const rp = `/rules/${kind}/${i}`;
      needField(`${rp}/field`, r.field, 'rule field');
      const f = byName.get(r.field);
      if (f?.enum && enums[f.enum]) {
        const allowed = enums[f.enum].map((v) => v.value);
        r.values.forEach((v, j) => {
          if (!allowed.includes(v)) at(`${rp}/values/${j}`, `${JSON.stringify(v)} is not a value of enum "${f.enum}"`);
        });
      }
    });
  checkStatusRules('editForbidden');
  checkStatusRules('deleteForbidden');

  const su = res.rules?.statusUpdate;
  if (su) {
    needField('/rules/statusUpdate/field', su.field, 'statusUpdate field');
    const f = byName.get(su.field);
    if (f && f.type !== 'enum') at('/rules/statusUpdate/field', `statusUpdate needs an enum field; "${su.field}" is ${f.type}`);
    if (f?.enum && enums[f.enum] && su.transitions) {
      const allowed = enums[f.enum].map((v) => String(v.value));
      for (const [from, tos] of Object.entries(su.transitions)) {
        if (!allowed.includes(from)) at(`/rules/statusUpdate/transitions/${from}`, `${from} is not a value of enum "${f.enum}"`);
        tos.forEach((to, j) => {
          if (!allowed.includes(String(to))) at(`/rules/statusUpdate/transitions/${from}/${j}`, `${JSON.stringify(to)} is not a value of enum "${f.enum}"`);
        });
      }
    }
  }

  res.rules?.compare?.forEach((c, i) => {
    const cp = `/rules/compare/${i}`;
    needField(`${cp}/left`, c.left, 'compare field');
    needField(`${cp}/right`, c.right, 'compare field');
    const want: FieldType[] | undefined = c.kind === 'earlier' ? ['date', 'datetime'] : c.kind === 'smaller' ? ['int', 'decimal'] : undefined;
    for (const side of ['left', 'right'] as const) {
      const f = byName.get(c[side]);
      if (f && want && !want.includes(f.type)) at(`${cp}/${side}`, `"${c.kind}" compares ${want.join(' or ')} fields; "${f.name}" is ${f.type}`);
    }
  });
}

/** children: the line resources, their keys, roll-ups and when they may be edited. */
function checkChildren({ res, resources, broken, at, needField, byName, enumValuesOk }: ResourceCheck): void {
  res.children?.forEach((ch, i) => {
    const child = resources[ch.resource];
    if (!child) {
      if (!broken.has(ch.resource)) at(`/children/${i}/resource`, `unknown resource "${ch.resource}"`);
    } else {
      const childNames = fieldNames(child);
      if (!childNames.has(ch.foreignKey)) at(`/children/${i}/foreignKey`, `"${ch.foreignKey}" is not a field of ${child.name}`);
      ch.uniqueKeys?.forEach((k, j) => {
        if (!childNames.has(k)) at(`/children/${i}/uniqueKeys/${j}`, `"${k}" is not a field of ${child.name}`);
      });
      ch.rollUps?.forEach((r, j) => {
        const rp = `/children/${i}/rollUps/${j}`;
        const f = byName.get(r.field);
        if (!f) at(`${rp}/field`, `"${r.field}" is not a field of ${res.name}`);
        else if (!['int', 'decimal'].includes(f.type)) at(`${rp}/field`, `a roll-up field must be int or decimal; "${f.name}" is ${f.type}`);
        else if (!f.readOnly) at(`${rp}/field`, `roll-up field "${f.name}" must be readOnly (it is computed from the lines)`);
        if (r.kind === 'sum') {
          const of = child.fields.find((x) => x.name === r.of);
          if (!r.of) at(rp, 'a sum roll-up names the line field it sums in "of"');
          else if (!of) at(`${rp}/of`, `"${r.of}" is not a field of ${child.name}`);
          else if (!['int', 'decimal'].includes(of.type)) at(`${rp}/of`, `only int and decimal fields can be summed; "${of.name}" is ${of.type}`);
        } else if (r.of !== undefined) at(`${rp}/of`, 'a count roll-up counts lines; "of" applies to sums');
      });
    }
    const cand = ch.batch?.candidates;
    const targetName = child && ch.batch && child.fields.find((f) => f.name === ch.batch!.by.field)?.ref?.resource;
    const target = targetName ? resources[targetName] : undefined;
    if (cand && target) {
      const cp = `/children/${i}/batch/candidates`;
      const targetNames = fieldNames(target);
      if (cand.filter && !target.filters?.[cand.filter]) at(`${cp}/filter`, `${target.name} declares no filter "${cand.filter}"`);
      if (cand.match) {
        needField(`${cp}/match/header`, cand.match.header, 'candidates match');
        if (!targetNames.has(cand.match.target)) at(`${cp}/match/target`, `"${cand.match.target}" is not a field of ${target.name}`);
      }
      [...(cand.narrow ?? []), ...(cand.columns ?? [])].forEach((f) => {
        if (!targetNames.has(f)) at(cp, `"${f}" is not a field of ${target.name}`);
      });
    }
    if (ch.editableWhen) {
      const ep = `/children/${i}/editableWhen`;
      needField(`${ep}/field`, ch.editableWhen.field, 'editableWhen field');
      enumValuesOk(ch.editableWhen.field, ch.editableWhen.values, `${ep}/values`);
    }
  });
}

/** number: the generated document number's field and pattern. */
function checkNumber({ res, at, byName }: ResourceCheck): void {
  if (res.number) {
    const f = byName.get(res.number.field);
    if (!f) at('/number/field', `"${res.number.field}" is not a field of ${res.name}`);
    else {
      if (f.type !== 'string') at('/number/field', `a document number needs a string field; "${f.name}" is ${f.type}`);
      if (f.required) at('/number/field', `"${f.name}" must not be required: it is generated when the create leaves it empty`);
      if (!f.unique) at('/number/field', `"${f.name}" must be unique (unique: "org")`);
    }
    const problem = numberPatternProblem(res.number.pattern);
    if (problem) at('/number/pattern', problem);
  }
}

/** print: header fields, a child to print as lines, its columns, group field and roll-ups. */
function checkPrint({ res, resources, at, needField, byName }: ResourceCheck): void {
  if (!res.print) return;
  res.print.fields.forEach((f, i) => needField(`/print/fields/${i}`, f, 'printed field'));
  const { lines } = res.print;
  const child = lines.resource ? res.children?.find((c) => c.resource === lines.resource) : res.children?.[0];
  if (!child) {
    at('/print/lines', lines.resource ? `"${lines.resource}" is not a child of ${res.name}` : `${res.name} has no children to print`);
    return;
  }
  const childRes = resources[child.resource];
  if (!childRes) return; // reported under children
  const names = fieldNames(childRes);
  const line = (p: string, f: string) => {
    if (!names.has(f)) at(p, `"${f}" is not a field of ${childRes.name}`);
  };
  lines.fields.forEach((f, i) => line(`/print/lines/fields/${i}`, f));
  if (lines.groupBy) line('/print/lines/groupBy', lines.groupBy);
  if (lines.perGroup && !lines.groupBy) at('/print/lines/perGroup', 'a per-group print needs groupBy');
  if (lines.perGroup && (byName.has(lines.perGroup) || lines.perGroup === lines.groupBy)) at('/print/lines/perGroup', `"${lines.perGroup}" is a field name`);
  lines.rollUps?.forEach((r, i) => {
    if (!child.rollUps?.some((u) => u.field === r)) at(`/print/lines/rollUps/${i}`, `"${r}" is not a roll-up of ${childRes.name} on ${res.name}`);
  });
}

/** transitions: each step's name and call, field, statuses, inputs, stamps and guard. */
function checkTransitions({ res, at, needField, byName, generated, enumValuesOk }: ResourceCheck): void {
  const stepNames = new Map<string, number>();
  res.transitions?.forEach((t, i) => {
    const tp = `/transitions/${i}`;
    if (stepNames.has(t.name) || t.name === STATUS_UPDATE_STEP)
      at(
        `${tp}/name`,
        `duplicate step "${t.name}"${stepNames.has(t.name) ? ` (also /transitions/${stepNames.get(t.name)})` : ' (the name of rules.statusUpdate)'}`,
      );
    stepNames.set(t.name, i);
    const path = transitionApiPath(res, t);
    if (generated.has(path) || path === resourceApiPath(res, 'base')) at(t.path ? `${tp}/path` : `${tp}/name`, `${path} is a generated call of ${res.name}`);
    needField(`${tp}/field`, t.field, 'transition field');
    const f = byName.get(t.field);
    if (f && f.type !== 'enum') at(`${tp}/field`, `a transition moves an enum field; "${t.field}" is ${f.type}`);
    enumValuesOk(t.field, t.from, `${tp}/from`);
    enumValuesOk(t.field, [t.to], `${tp}/to`, true);
    if (t.from.some((v) => String(v) === String(t.to))) at(`${tp}/to`, `${JSON.stringify(t.to)} is also a "from" status: the step would not change anything`);
    t.inputs?.forEach((inp, j) => {
      if (typeof inp === 'string') {
        needField(`${tp}/inputs/${j}`, inp, 'transition input');
        if (inp === t.field) at(`${tp}/inputs/${j}`, `the status field "${inp}" is set by the step, not sent`);
      } else if (byName.has(inp.name)) at(`${tp}/inputs/${j}/name`, `"${inp.name}" is a field of ${res.name}: name it as a string to write it`);
    });
    for (const kind of ['user', 'time'] as const) {
      const name = t.stamp?.[kind];
      if (name === undefined) continue;
      const sf = byName.get(name);
      const want: FieldType[] = kind === 'time' ? ['datetime'] : ['string', 'int', 'ref'];
      if (!sf) at(`${tp}/stamp/${kind}`, `"${name}" is not a field of ${res.name}`);
      else if (!want.includes(sf.type)) at(`${tp}/stamp/${kind}`, `a ${kind} stamp needs a ${want.join(' or ')} field; "${name}" is ${sf.type}`);
    }
    // guard.notUser names a field recording a user (a stamp): a name or an id
    const nu = t.guard?.notUser;
    if (nu !== undefined) {
      const gf = byName.get(nu);
      if (!gf) at(`${tp}/guard/notUser`, `"${nu}" is not a field of ${res.name}`);
      else if (!['string', 'int', 'ref'].includes(gf.type))
        at(`${tp}/guard/notUser`, `guard.notUser needs a field recording a user (string name, int or ref id); "${nu}" is ${gf.type}`);
      else if (t.stamp?.user === nu) at(`${tp}/guard/notUser`, `"${nu}" is this step's own stamp: it would compare the caller with itself`);
    }
    if (t.guard && t.guard.notUser === undefined && t.guard.permission === undefined) at(`${tp}/guard`, 'a guard needs notUser or permission');
  });
}

/** A shared status call picks its step by target: one step per target, all on one field. */
function checkSharedStatusCalls({ res, at, generated }: ResourceCheck): void {
  const shared = new Map<string, number[]>();
  res.transitions?.forEach((t, i) => {
    if (t.statusCall === undefined) return;
    shared.set(t.statusCall, [...(shared.get(t.statusCall) ?? []), i]);
    if (generated.has(t.statusCall) || t.statusCall === resourceApiPath(res, 'base'))
      at(`/transitions/${i}/statusCall`, `${t.statusCall} is a generated call of ${res.name}`);
    else if (res.transitions!.some((o) => transitionApiPath(res, o) === t.statusCall))
      at(`/transitions/${i}/statusCall`, `${t.statusCall} is the call of a step`);
  });
  for (const idx of shared.values()) {
    idx.forEach((i, k) => {
      const t = res.transitions![i];
      const first = res.transitions![idx[0]];
      if (t.field !== first.field)
        at(`/transitions/${i}/field`, `steps sharing ${t.statusCall} must move one field ("${first.field}", /transitions/${idx[0]})`);
      const twin = idx.slice(0, k).find((j) => String(res.transitions![j].to) === String(t.to));
      if (twin !== undefined)
        at(`/transitions/${i}/to`, `${JSON.stringify(t.to)} is also the target of /transitions/${twin} on ${t.statusCall}: the call could not tell them apart`);
    });
  }
}

/**
 * Form defaults: the call is the resource's own (its permission hangs under the create
 * screen), neither generated nor a step; what it reacts to and fills are create-form inputs.
 */
function checkFormDefaults({ res, at, byName, prefix, generated }: ResourceCheck): void {
  const df = res.form?.defaultsFrom;
  if (df) {
    const dp = '/form/defaultsFrom';
    if (!df.call.startsWith(prefix + '/')) at(`${dp}/call`, `must be a call under the resource's prefix ${prefix}/`);
    else if (generated.has(df.call)) at(`${dp}/call`, `${df.call} is a generated call of ${res.name}`);
    else if (res.transitions?.some((t) => transitionApiPath(res, t) === df.call || t.statusCall === df.call))
      at(`${dp}/call`, `${df.call} is the call of a step`);
    const inCreateForm = (f: FieldDef | undefined) =>
      !!f && f.form !== false && !f.hidden && !f.readOnly && !(typeof f.form === 'object' && f.form.mode === 'edit');
    df.on.forEach((name, i) => {
      if (!inCreateForm(byName.get(name))) at(`${dp}/on/${i}`, `"${name}" is not a field of ${res.name}'s create form`);
    });
    for (const name of Object.keys(df.choices ?? {})) {
      const f = byName.get(name);
      if (!inCreateForm(f) || f?.type !== 'ref') at(`${dp}/choices/${name}`, `"${name}" is not a ref field of ${res.name}'s create form`);
    }
  }
}
