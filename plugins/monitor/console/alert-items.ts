/** Alert rows → notification menu items: device serial, reason, created or report time. */
import type { EnumsFile } from '@rti/metadata/browser';
import type { NotificationItem } from '@rti/console/plugin-api';
import type { AlertKind } from './alert-kinds';
import type { AlertRow } from './alert-kinds';
import { formatDateTime } from '@rti/console/plugin-api';

type T = (key: string) => string;

export function reasonText(kind: AlertKind, row: AlertRow, enums: EnumsFile | undefined, t: T): string {
  const v = row[kind.reasonField];
  if (v === null || v === undefined) return '';
  const label = kind.reasonEnum ? enums?.[kind.reasonEnum]?.find((e) => e.value === v)?.label : undefined;
  if (label) return t(label);
  return kind.reasonEnum ? String(v) : `${t('monitor.code')} ${String(v)}`;
}

export function alertItem(kind: AlertKind, row: AlertRow, enums: EnumsFile | undefined, t: T): NotificationItem {
  const time = row[kind.timeField];
  return {
    key: `${kind.category}:${row.id}`,
    title: String(row[kind.snField] ?? ''),
    description: [reasonText(kind, row, enums, t), typeof row.message === 'string' ? row.message : ''].filter(Boolean).join(' — '),
    time: time ? formatDateTime(time as string) : undefined,
    path: `${kind.route}/detail/${row.id}`,
  };
}

/** enums seen by the header widget, for notification sources that load outside React */
let knownEnums: EnumsFile | undefined;
export const setKnownEnums = (e: EnumsFile) => void (knownEnums = e);
export const getKnownEnums = () => knownEnums;
