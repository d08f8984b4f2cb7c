/**
 * Valid sample bodies for any resource, derived from its metadata alone, so the suite
 * covers every declared resource (and every one added later) without hand-written rows.
 */
import { isNamedPattern, namedPatterns, type FieldDef, type Metadata, type ResourceDef } from '@rti/metadata';

const NAMED_SAMPLES: Record<string, (n: number) => string> = {
  mac: (n) => `AA:BB:CC:${hex(n >> 16)}:${hex(n >> 8)}:${hex(n)}`,
  password: (n) => `Passw0rd!${n}`,
  mqttPassword: (n) => `MqttPass${n}x`,
  color: (n) => `#${hex(n)}${hex(n * 7)}${hex(n * 13)}`.toUpperCase(),
  email: (n) => `user${n}@example.com`,
  mobile: (n) => `138${String(n).padStart(8, '0')}`,
  code: (n) => `C${n}`,
  cron: () => '0 0 * * *',
  url: (n) => `https://example.com/${n}`,
  timeZone: (n) => ['Asia/Shanghai', 'Europe/Berlin', 'America/New_York'][n % 3],
};
const hex = (n: number) => (n & 0xff).toString(16).padStart(2, '0');

/** Strings for a custom regular expression: the first candidate it accepts. */
function regexSample(pattern: string, n: number, maxLength: number): string {
  const re = new RegExp(pattern);
  const digits = (len: number) => String(n).padStart(len, '7').slice(-len);
  const candidates = [`s${n}`, `S${n}x`, `IP6${n % 10}`, ...[7, 9, 11, 12, 15, 18, 20].map(digits), `IMO${digits(7)}`];
  const hit = candidates.find((c) => c.length <= maxLength && re.test(c));
  if (!hit) throw new Error(`samples: no candidate matches pattern ${pattern}; add one to test/support/samples.ts`);
  return hit;
}

function stringSample(f: FieldDef, n: number): string {
  const max = f.maxLength ?? (f.type === 'string' ? 255 : 1000);
  let s: string;
  if (f.pattern) s = isNamedPattern(f.pattern) ? NAMED_SAMPLES[f.pattern](n) : regexSample(f.pattern, n, max);
  else s = `${f.name}-${n}`;
  if (f.minLength && s.length < f.minLength) s = s.padEnd(f.minLength, 'x');
  if (s.length > max) s = s.slice(-max);
  if (f.pattern && isNamedPattern(f.pattern) && !namedPatterns[f.pattern].test(s))
    throw new Error(`samples: ${f.name} sample "${s}" does not match ${f.pattern}`);
  return s;
}

/** Enum values some status rule forbids edits or deletes in (samples stay clear of them). */
export function forbiddenValues(res: ResourceDef, field: string): Set<string> {
  const rules = [...(res.rules?.editForbidden ?? []), ...(res.rules?.deleteForbidden ?? [])].filter((r) => r.field === field);
  return new Set(rules.flatMap((r) => r.values.map(String)));
}

export function sampleValue(f: FieldDef, meta: Metadata, n: number, refIds: Record<string, number>, avoid: Set<string> = new Set()): unknown {
  const num = () => {
    const lo = f.min ?? 0;
    const hi = f.max ?? lo + 1000;
    return Math.min(hi, lo + (n % Math.max(1, hi - lo + 1)));
  };
  switch (f.type) {
    case 'string':
    case 'text':
    case 'password':
      return stringSample(f, n);
    case 'color':
      return NAMED_SAMPLES.color(n);
    case 'int':
      return num();
    case 'decimal':
      return num() + (f.max !== undefined && num() >= f.max ? 0 : 0.5);
    case 'bool':
      return n % 2 === 0;
    case 'date':
      return `2026-0${1 + (n % 9)}-1${n % 10}`;
    case 'datetime':
      return new Date(Date.UTC(2026, 0, 1 + (n % 28), 8)).toISOString();
    case 'enum': {
      const values = meta.enums[f.enum!].filter((v) => !avoid.has(String(v.value)));
      return values[n % values.length].value;
    }
    case 'enums':
      return [meta.enums[f.enum!][0].value];
    case 'ref':
      return refIds[f.ref!.resource];
    case 'refs':
      return refIds[f.ref!.resource] ? [refIds[f.ref!.resource]] : [];
    case 'image':
    case 'file':
      return `upload-${n}.png`;
    case 'lnglat':
      return [121.47, 31.23];
    case 'permissions':
      return [];
    case 'json':
      return { sample: n };
  }
}

/**
 * A valid create body: every writable field (so the row exercises every column), compare
 * rules satisfied (left gets the smaller/earlier value), refs pointing at `refIds`.
 */
export function sampleBody(
  res: ResourceDef,
  meta: Metadata,
  n: number,
  refIds: Record<string, number>,
  otherRefIds: Record<string, number> = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  // a document made from a source takes these header values from it (metadata source.header)
  const fromSource = new Set(Object.keys(res.source?.header ?? {}));
  for (const f of res.fields) {
    if (f.readOnly || f.name === 'id' || fromSource.has(f.name)) continue;
    if ((f.type === 'ref' || f.type === 'refs') && (!f.ref || refIds[f.ref.resource] === undefined)) {
      if (f.required) throw new Error(`samples: ${res.name}.${f.name} needs a ${f.ref?.resource} row first`);
      continue;
    }
    body[f.name] = sampleValue(f, meta, n, refIds, forbiddenValues(res, f.name));
  }
  for (const rule of res.rules?.compare ?? []) {
    const left = res.fields.find((f) => f.name === rule.left);
    const right = res.fields.find((f) => f.name === rule.right);
    if (!left || !right || left.readOnly || right.readOnly) continue;
    if (rule.kind === 'earlier') {
      body[rule.left] = left.type === 'date' ? '2026-01-01' : '2026-01-01T00:00:00.000Z';
      body[rule.right] = right.type === 'date' ? '2026-12-31' : '2026-12-31T00:00:00.000Z';
    } else if (rule.kind === 'smaller') {
      body[rule.left] = left.min ?? 1;
      body[rule.right] = Math.min(right.max ?? 1_000_000, (left.min ?? 1) + 10);
    } else if (rule.kind === 'different') {
      if (JSON.stringify(body[rule.left]) !== JSON.stringify(body[rule.right])) continue;
      const other = right.ref && otherRefIds[right.ref.resource];
      if (right.type === 'ref' && other) body[rule.right] = other;
      else if (!right.required) delete body[rule.right];
      else throw new Error(`samples: ${res.name}.${rule.right} must differ from ${rule.left}; no second ${right.ref?.resource} row`);
    }
  }
  return body;
}

/** Resources ordered so that every required ref's target comes first. */
export function creationOrder(meta: Metadata): ResourceDef[] {
  const out: ResourceDef[] = [];
  const seen = new Set<string>();
  const visit = (res: ResourceDef, stack: Set<string>) => {
    if (seen.has(res.name) || stack.has(res.name)) return;
    stack.add(res.name);
    for (const f of res.fields) {
      const target = f.ref && meta.resources[f.ref.resource];
      if (target && target.name !== res.name && (f.type === 'ref' || f.type === 'refs')) visit(target, stack);
    }
    seen.add(res.name);
    out.push(res);
  };
  for (const res of Object.values(meta.resources).sort((a, b) => a.name.localeCompare(b.name))) visit(res, new Set());
  return out;
}
