/**
 * What the maintenance plugin's parts share: resource names, who a stamp names, enum labels
 * for messages, the carrier asset log writer.
 */
import { Enums, fieldLabelKey, type ResourceDef } from '@rti/metadata';
import { tKey, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import type { Transaction } from 'sequelize';

export const RECORD = 'carrier-asset-maintenance-record';
export const ASSET = 'carrier-asset';
export const TRANSFER = 'carrier-asset-transfer';
export const ASSET_LOG = 'carrier-asset-log';
/** one row per asset refresh: its progress, read by any server instance */
export const REFRESH_RUN = 'carrier-asset-refresh-run';

export type Row = Record<string, any>;

/** who a stamp names: the user's real name, else the login — as the step engine's string stamps */
export const operatorOf = (call: RequestContext): string => (call.user?.realName || call.user?.username || 'system').slice(0, 50);

/** serials for a message: the first ten, then how many more */
export function snList(sns: string[]): string {
  const shown = sns.slice(0, 10).join(', ');
  return sns.length > 10 ? `${shown} (+${sns.length - 10})` : shown;
}

/** an enum value's label, translated when the message is rendered */
export function enumLabel(name: keyof typeof Enums, value: unknown): unknown {
  const entry = Object.entries(Enums[name] as Record<string, number | string>).find(([, v]) => String(v) === String(value));
  return entry ? tKey(`enums.${name}.${entry[0]}`) : String(value);
}

export const fieldLabel = (res: ResourceDef, name: string): unknown => {
  const f = res.fields.find((x) => x.name === name);
  return f ? tKey(fieldLabelKey(f)) : name;
};

export const empty = (v: unknown): boolean => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

export const dayString = (at: Date): string => at.toISOString().slice(0, 10);

export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return dayString(d);
}

/** The changes between two rows of an asset, as the log keeps them: `{ field: [before, after] }`. */
export function changesOf(before: Row | undefined, after: Row, fields: readonly string[]): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const f of fields) {
    const a = before?.[f] ?? null;
    const b = after[f] ?? null;
    if (JSON.stringify(a) !== JSON.stringify(b)) out[f] = [a, b];
  }
  return out;
}

export interface AssetLogEntry {
  sn: string | null;
  action: number;
  content: Record<string, unknown>;
}

/** Writes carrier asset log rows (SPEC `/log/carrierasset/list`) in the caller's organisation, in the write's transaction. */
export async function writeAssetLog(ctx: PluginServerContext, call: RequestContext, entries: AssetLogEntry[], transaction?: Transaction): Promise<void> {
  if (!entries.length) return;
  const time = new Date();
  const operator = operatorOf(call);
  await ctx.repo(ASSET_LOG, call).insertMany(
    entries.map((e) => ({ sn: (e.sn ?? '-').slice(0, 64), action: e.action, content: JSON.stringify(e.content).slice(0, 20000), operator, time })),
    { transaction },
  );
}
