/** Row statuses (ResourceDef.rules): where edit or delete is refused, where a status may move. */
import type { ResourceDef, StatusRule } from '@rti/metadata/browser';

export function forbiddenBy(rules: StatusRule[] | undefined, row: Record<string, unknown> | undefined): StatusRule | undefined {
  if (!row || !rules) return undefined;
  return rules.find((r) => {
    const v = row[r.field];
    return v !== undefined && v !== null && r.values.some((x) => String(x) === String(v));
  });
}

export const editForbidden = (res: ResourceDef, row: Record<string, unknown> | undefined) => forbiddenBy(res.rules?.editForbidden, row);
export const deleteForbidden = (res: ResourceDef, row: Record<string, unknown> | undefined) => forbiddenBy(res.rules?.deleteForbidden, row);

/**
 * Values the `rules.statusUpdate` field of a row may move to: the declared transitions from
 * its current value, or every other value of its enumeration when none are declared.
 */
export function statusTargets(
  res: ResourceDef,
  row: Record<string, unknown> | undefined,
  values: ReadonlyArray<{ value: string | number }>,
): Array<string | number> {
  const rule = res.rules?.statusUpdate;
  if (!rule || !row) return [];
  const current = row[rule.field];
  const transitions = rule.transitions;
  if (transitions) {
    const next = transitions[String(current)] ?? [];
    return values.filter((v) => next.some((n) => String(n) === String(v.value))).map((v) => v.value);
  }
  return values.filter((v) => String(v.value) !== String(current)).map((v) => v.value);
}
