/**
 * The zone registry: which plugin components fill a named zone of the generated screens
 * (`<resource>.show.before`, `.show.after`, `.lines.toolbar`, `.list.toolbar`), for one user.
 * Pure (unit-tested in test/shell-zones.test.ts); the screens render the result with
 * `meta/components/zone.tsx`.
 */
import type { ConsolePlugin, LazyComponent, ZoneEntry, ZoneSlot } from '../plugin-contract';

export const ZONE_SLOTS: readonly ZoneSlot[] = ['show.before', 'show.after', 'lines.toolbar', 'list.toolbar', 'form.after'];

/** The zone name of one slot of a resource's screens: `zoneName('receipt', 'show.after')`. */
export const zoneName = (resource: string, slot: ZoneSlot): string => `${resource}.${slot}`;

/** A zone component of any props (each zone's props are typed by ZoneMap). */
export type AnyZoneComponent = LazyComponent<any>;

/** One component placed in a zone, in the order the zone shows them. */
export interface ResolvedZoneEntry {
  /** stable React key: `<plugin id>:<index>` */
  key: string;
  plugin: string;
  component: AnyZoneComponent;
  order: number;
}

const asList = (v: unknown): Array<ZoneEntry<unknown>> => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]) as Array<ZoneEntry<unknown>>;

/**
 * The components of `zone` the user may see: every plugin's entries for it, without those whose
 * `viewCode` the user lacks or whose `when` refuses the record (when there is one), by `order`
 * (default 50), then plugin id, then declaration order.
 */
export function zoneEntries(
  plugins: readonly ConsolePlugin[],
  zone: string,
  has: (code: string) => boolean,
  record?: Record<string, unknown>,
): ResolvedZoneEntry[] {
  const out: ResolvedZoneEntry[] = [];
  for (const p of plugins) {
    asList((p.zones as Record<string, unknown> | undefined)?.[zone]).forEach((e, i) => {
      const entry = typeof e === 'function' ? { component: e } : e;
      if (!entry || typeof entry.component !== 'function') return;
      if ('viewCode' in entry && entry.viewCode && !has(entry.viewCode)) return;
      if (record && 'when' in entry && entry.when && !entry.when(record)) return;
      out.push({ key: `${p.id}:${i}`, plugin: p.id, component: entry.component, order: ('order' in entry ? entry.order : undefined) ?? 50 });
    });
  }
  return out.sort((a, b) => a.order - b.order || a.plugin.localeCompare(b.plugin) || a.key.localeCompare(b.key, undefined, { numeric: true }));
}

/** Zone names no screen renders (a typo in the slot): `plugin: zone`, for a warning at start-up and the tests. */
export function unknownZones(plugins: readonly ConsolePlugin[]): string[] {
  return plugins.flatMap((p) =>
    Object.keys(p.zones ?? {})
      .filter((z) => !ZONE_SLOTS.some((s) => z.endsWith(`.${s}`) && z.length > s.length + 1))
      .map((z) => `${p.id}: ${z}`),
  );
}
