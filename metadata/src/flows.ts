/**
 * Document flows: documents made from documents, status groups, line steps, scope through an
 * open document, scanning. Declarations speak of statuses by enum key (`"released"`) or by a
 * status group's name (`"open"`); `resolveFlowKeys` turns them into the enumeration's values
 * once, at load, so server and console read plain values and every typo is a load fault.
 */
import type { Fault } from './check';
import { resourceApiPrefix } from './permissions';
import type { ChildrenDef, EnumsFile, Metadata, ResourceDef, SourceDef } from './types';

type Scalar = string | number;

/** the call answering the header values a document's source gives (the create form's defaults) */
export const sourcePrefillPath = (res: Pick<ResourceDef, 'name' | 'apiPath'>): string => `${resourceApiPrefix(res)}/prefill`;

/** the enum key of a value's label (`enums.receiptStatus.new` → `new`) */
const keyOf = (label: string): string => label.slice(label.lastIndexOf('.') + 1);

/** The values a list of keys, values or group names stands for; unknown entries go to `bad`. */
function resolveList(enums: EnumsFile, res: ResourceDef, field: string, list: Scalar[] | Scalar, bad: (v: Scalar) => void): Scalar[] {
  const f = res.fields.find((x) => x.name === field);
  const values = f?.enum ? enums[f.enum] : undefined;
  const groups = field === (res.statusField ?? 'status') ? res.statusGroups : undefined;
  const out: Scalar[] = [];
  for (const v of Array.isArray(list) ? list : [list]) {
    if (!values) {
      out.push(v);
      continue;
    }
    if (values.some((e) => String(e.value) === String(v))) out.push(typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v);
    else if (typeof v === 'string' && groups?.[v]) out.push(...resolveList(enums, res, field, groups[v], bad));
    else {
      const e = typeof v === 'string' ? values.find((x) => keyOf(x.label) === v) : undefined;
      if (e) out.push(e.value);
      else {
        // kept as written: the cross-checks name it where they check values (transitions, rules)
        out.push(v);
        bad(v);
      }
    }
  }
  return [...new Set(out)];
}

/**
 * Resolves enum keys and group names in place (status groups, transitions, editableWhen,
 * rules, roll-up filters, sources, scope grants, scans). Answers faults for names that are
 * neither a value, a key nor a group; runs before the cross-checks, which then see values.
 */
export function resolveFlowKeys(meta: Metadata, files: Record<string, string>): Fault[] {
  const faults: Fault[] = [];
  const { enums, resources } = meta;
  for (const res of Object.values(resources)) {
    const file = files[res.name] ?? res.name;
    const at = (pointer: string) => (v: Scalar) =>
      faults.push({ file, pointer, problem: `${JSON.stringify(v)} is neither a value, an enum key nor a status group` });
    const list = (r: ResourceDef, field: string, l: Scalar[] | Scalar, pointer: string) => resolveList(enums, r, field, l, at(pointer));
    // where checkMetadata already refuses a value outside the enumeration, one fault is enough
    const checked = (r: ResourceDef, field: string, l: Scalar[] | Scalar) => resolveList(enums, r, field, l, () => undefined);
    const statusField = res.statusField ?? 'status';
    for (const [name, values] of Object.entries(res.statusGroups ?? {})) {
      // a group is made of keys and values only (not other groups: no cycles to chase)
      const groups = res.statusGroups;
      res.statusGroups = undefined;
      const resolved = list(res, statusField, values, `/statusGroups/${name}`);
      res.statusGroups = groups;
      res.statusGroups![name] = resolved;
    }
    for (const [name, filter] of Object.entries(res.filters ?? {})) {
      for (const [f, cond] of Object.entries(filter)) {
        if (!res.fields.some((x) => x.name === f)) faults.push({ file, pointer: `/filters/${name}/${f}`, problem: `"${f}" is not a field of ${res.name}` });
        else if (Array.isArray(cond)) filter[f] = list(res, f, cond, `/filters/${name}/${f}`);
        else filter[f] = { not: list(res, f, cond.not, `/filters/${name}/${f}/not`) };
      }
    }
    res.transitions?.forEach((t, i) => {
      t.from = checked(res, t.field, t.from);
      [t.to] = checked(res, t.field, [t.to]);
      const parent = t.while !== undefined ? parentOf(meta, res.name)?.header : undefined;
      if (parent) t.while = list(parent, parent.statusField ?? 'status', t.while!, `/transitions/${i}/while`);
      if (t.lines) {
        const child = resources[t.lines.child];
        if (child) {
          const field = t.lines.field ?? child.statusField ?? 'status';
          t.lines.from = list(child, field, t.lines.from, `/transitions/${i}/lines/from`);
          [t.lines.to] = list(child, field, [t.lines.to], `/transitions/${i}/lines/to`);
        }
      }
    });
    for (const kind of ['editForbidden', 'deleteForbidden'] as const) {
      res.rules?.[kind]?.forEach((r) => (r.values = checked(res, r.field, r.values)));
    }
    res.children?.forEach((ch, i) => {
      const child = resources[ch.resource];
      if (ch.editableWhen) ch.editableWhen.values = checked(res, ch.editableWhen.field, ch.editableWhen.values);
      if (ch.grantsScope) ch.grantsScope.while = list(res, statusField, ch.grantsScope.while, `/children/${i}/grantsScope/while`);
      if (ch.exclusive) ch.exclusive.while = list(res, statusField, ch.exclusive.while, `/children/${i}/exclusive/while`);
      if (!child) return;
      if (ch.grantsScope?.lines)
        for (const [f, vs] of Object.entries(ch.grantsScope.lines)) ch.grantsScope.lines[f] = list(child, f, vs, `/children/${i}/grantsScope/lines/${f}`);
      if (ch.exclusive?.lines)
        for (const [f, vs] of Object.entries(ch.exclusive.lines)) ch.exclusive.lines[f] = list(child, f, vs, `/children/${i}/exclusive/lines/${f}`);
      ch.rollUps?.forEach((r, j) => {
        for (const [f, vs] of Object.entries(r.where ?? {})) r.where![f] = list(child, f, vs, `/children/${i}/rollUps/${j}/where/${f}`);
      });
      if (ch.scan?.extra !== undefined) [ch.scan.extra] = list(child, child.statusField ?? 'status', [ch.scan.extra], `/children/${i}/scan/extra`);
    });
    const src = res.source;
    if (src) {
      const from = resources[src.resource];
      if (from) src.from = list(from, src.statusField ?? from.statusField ?? 'status', src.from, '/source/from');
      const lines = src.lines;
      const fromLines = lines ? resources[lines.from] : undefined;
      const intoLines = lines ? resources[lines.child] : undefined;
      if (lines && fromLines) for (const [f, vs] of Object.entries(lines.where ?? {})) lines.where![f] = list(fromLines, f, vs, `/source/lines/where/${f}`);
      if (lines && intoLines) for (const [f, v] of Object.entries(lines.set ?? {})) [lines.set![f]] = list(intoLines, f, [v], `/source/lines/set/${f}`);
      // The create form asks the source for its header values, and the picker offers only
      // sources in an allowed status: both follow from the declaration.
      const field = res.fields.find((x) => x.name === src.field);
      if (field?.ref && from) field.ref.filter = { ...field.ref.filter, [src.statusField ?? from.statusField ?? 'status']: src.from };
      if (!res.form?.defaultsFrom) res.form = { ...res.form, defaultsFrom: { call: sourcePrefillPath(res), on: [src.field] } };
    }
  }
  return faults;
}

/** Cross-checks of the flow declarations (after keys are resolved). */
export function checkFlows(meta: Metadata, files: Record<string, string>): Fault[] {
  const faults: Fault[] = [];
  const { resources } = meta;
  for (const res of Object.values(resources)) {
    const file = files[res.name] ?? res.name;
    const at = (pointer: string, problem: string) => faults.push({ file, pointer, problem });
    const has = (r: ResourceDef | undefined, f: string) => !!r?.fields.some((x) => x.name === f);
    res.children?.forEach((ch, i) => {
      const child = resources[ch.resource];
      if (!child) return;
      if (ch.grantsScope) {
        const f = child.fields.find((x) => x.name === ch.grantsScope!.field);
        if (!f || f.type !== 'ref') at(`/children/${i}/grantsScope/field`, `"${ch.grantsScope.field}" is not a ref field of ${child.name}`);
      }
      if (ch.exclusive) {
        const f = child.fields.find((x) => x.name === ch.exclusive!.key);
        if (!f || f.type !== 'ref') at(`/children/${i}/exclusive/key`, `"${ch.exclusive.key}" is not a ref field of ${child.name}`);
      }
      if (ch.batch) {
        const f = child.fields.find((x) => x.name === ch.batch!.by.field);
        if (!f?.ref) at(`/children/${i}/batch/by/field`, `"${ch.batch.by.field}" is not a ref field of ${child.name}`);
        else if (!has(resources[f.ref.resource], ch.batch.by.key))
          at(`/children/${i}/batch/by/key`, `"${ch.batch.by.key}" is not a field of ${f.ref.resource}`);
        ch.batch.values?.forEach((v, j) => {
          if (!has(child, v)) at(`/children/${i}/batch/values/${j}`, `"${v}" is not a field of ${child.name}`);
        });
      }
      if (ch.scan) {
        if (!has(child, ch.scan.key)) at(`/children/${i}/scan/key`, `"${ch.scan.key}" is not a field of ${child.name}`);
        if (ch.scan.container && !has(child, ch.scan.container)) at(`/children/${i}/scan/container`, `"${ch.scan.container}" is not a field of ${child.name}`);
        if (!child.transitions?.some((t) => t.name === ch.scan!.step)) at(`/children/${i}/scan/step`, `${child.name} has no step "${ch.scan.step}"`);
        if (ch.scan.by) {
          const f = child.fields.find((x) => x.name === ch.scan!.by!.field);
          if (!f?.ref) at(`/children/${i}/scan/by/field`, `"${ch.scan.by.field}" is not a ref field of ${child.name}`);
          else if (!has(resources[f.ref.resource], ch.scan.by.key)) at(`/children/${i}/scan/by/key`, `"${ch.scan.by.key}" is not a field of ${f.ref.resource}`);
        }
      }
    });
    res.fields.forEach((f, i) => {
      if (!f.snapshot) return;
      const of = res.fields.find((x) => x.name === f.snapshot!.of);
      if (!f.readOnly) at(`/fields/${i}/snapshot`, `snapshot field "${f.name}" must be readOnly (the engine writes it)`);
      if (!of?.ref) at(`/fields/${i}/snapshot/of`, `"${f.snapshot.of}" is not a ref field of ${res.name}`);
      else if (!has(resources[of.ref.resource], f.snapshot.field))
        at(`/fields/${i}/snapshot/field`, `"${f.snapshot.field}" is not a field of ${of.ref.resource}`);
    });
    res.transitions?.forEach((t, i) => {
      if (t.lines && !res.children?.some((c) => c.resource === t.lines!.child))
        at(`/transitions/${i}/lines/child`, `"${t.lines.child}" is not a line resource of ${res.name}`);
      if (t.while !== undefined && !parentOf(meta, res.name)) at(`/transitions/${i}/while`, `${res.name} is no document's line`);
      if (t.header) {
        const parent = parentOf(meta, res.name);
        if (!parent) at(`/transitions/${i}/header`, `${res.name} is no document's line`);
        else if (!parent.header.transitions?.some((x) => x.name === t.header))
          at(`/transitions/${i}/header`, `${parent.header.name} has no step "${t.header}"`);
      }
      if (t.confirmCount && !has(res, t.confirmCount.field))
        at(`/transitions/${i}/confirmCount/field`, `"${t.confirmCount.field}" is not a field of ${res.name}`);
    });
    const src = res.source;
    if (src) {
      const from = resources[src.resource];
      if (!from) at('/source/resource', `unknown resource "${src.resource}"`);
      const f = res.fields.find((x) => x.name === src.field);
      if (!f || f.type !== 'ref' || f.ref?.resource !== src.resource)
        at('/source/field', `"${src.field}" is not a ref field of ${res.name} to ${src.resource}`);
      for (const [mine, theirs] of Object.entries(src.header ?? {})) {
        if (!has(res, mine)) at(`/source/header/${mine}`, `"${mine}" is not a field of ${res.name}`);
        if (from && !has(from, theirs)) at(`/source/header/${mine}`, `"${theirs}" is not a field of ${src.resource}`);
      }
      const lines = src.lines;
      if (lines) {
        if (!res.children?.some((c) => c.resource === lines.child)) at('/source/lines/child', `"${lines.child}" is not a line resource of ${res.name}`);
        if (from && !from.children?.some((c) => c.resource === lines.from))
          at('/source/lines/from', `"${lines.from}" is not a line resource of ${src.resource}`);
        for (const [mine, theirs] of Object.entries(lines.copy)) {
          if (!has(resources[lines.child], mine)) at(`/source/lines/copy/${mine}`, `"${mine}" is not a field of ${lines.child}`);
          if (!has(resources[lines.from], theirs)) at(`/source/lines/copy/${mine}`, `"${theirs}" is not a field of ${lines.from}`);
        }
      }
    }
  }
  return faults;
}

/** The header a line resource hangs under, with its declaration (first one). */
export function parentOf(meta: Metadata, lineResource: string): { header: ResourceDef; child: ChildrenDef } | undefined {
  for (const header of Object.values(meta.resources)) {
    const child = header.children?.find((c) => c.resource === lineResource);
    if (child) return { header, child };
  }
  return undefined;
}

/** The values a status group of a resource stands for (resolved at load). */
export function statusGroup(res: ResourceDef, name: string): Array<string | number> {
  const g = res.statusGroups?.[name];
  if (!g) throw new Error(`${res.name} declares no status group "${name}"`);
  return g;
}

export type { SourceDef };
