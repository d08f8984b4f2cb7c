/**
 * Pure helpers of the generic scan panel (metadata children `scan`; test/scan-logic.test.ts):
 * the answer of `<line prefix>/scan`, the header's filtered roll-ups shown as live counts, and
 * whether the document still takes scans.
 */
import { resourceApiPrefix, type ChildrenDef, type EnumsFile, type ResourceDef } from '@rti/metadata/browser';
import { findEnumValue } from './format';

type Row = Record<string, unknown>;

/** One key the scan took: the line it matched (or added as extra) and that line's status now. */
export interface ScanAccepted {
  key: string;
  id: number;
  status: number | string;
}
/** One key the scan refused, with the server's reason (already in the user's language). */
export interface ScanRefused {
  key: string;
  reason?: number | string;
  message: string;
}
/** `POST <line prefix>/scan { <foreign key>, keys?, containers? }` */
export interface ScanAnswer {
  accepted: ScanAccepted[];
  refused: ScanRefused[];
  /** the header after the scan (its roll-ups) */
  header?: Row;
}

const same = (a: unknown, b: unknown) => a !== undefined && a !== null && String(a) === String(b);

/** Keys typed, scanned or pasted: one per line, or separated by commas, semicolons or spaces. */
export function parseKeys(text: string): string[] {
  return text
    .split(/[\s,;，；]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** What a scan did, for the feedback: done (matched a line), extra (not on the document), refused. */
export function scanSummary(answer: ScanAnswer, extraStatus: unknown): { done: number; extra: number; refused: number } {
  const extra = extraStatus === undefined ? 0 : answer.accepted.filter((a) => same(a.status, extraStatus)).length;
  return { done: answer.accepted.length - extra, extra, refused: answer.refused.length };
}

/** Whether the header takes scans: in its `open` status group when it declares one. */
export function headerOpen(header: ResourceDef, record: Row | undefined): boolean {
  const open = header.statusGroups?.open;
  if (!open) return true;
  return open.some((v) => same(record?.[header.statusField ?? 'status'], v));
}

/**
 * The fresher of the page's header row and the one a scan answered with (by `updatedAt`; the
 * page's on a tie): the counts show the scan's result at once and the page's once it re-read.
 */
export function newerRow(page: Row, scanned: Row | undefined): Row {
  if (!scanned || String(scanned.id) !== String(page.id)) return page;
  const at = (r: Row) => Date.parse(String(r.updatedAt ?? '')) || 0;
  return at(scanned) > at(page) ? scanned : page;
}

export interface ScanCount {
  field: string;
  /** the label key: the one status the roll-up counts, else the header field's */
  labelKey: string;
  color?: string;
  value: number;
}

/** CSS colours for the enum colours a count may carry (antd's tag presets that are no CSS name). */
const CSS: Record<string, string> = {
  success: '#389e0d',
  green: '#389e0d',
  error: '#cf1322',
  red: '#cf1322',
  warning: '#d46b08',
  orange: '#d46b08',
  volcano: '#d4380d',
  blue: '#0958d9',
  processing: '#0958d9',
};

/** The header's roll-ups filtered by one line field (expected, received, …) as counts, in declaration order. */
export function scanCounts(header: ResourceDef, child: ChildrenDef, lines: ResourceDef, enums: EnumsFile, record: Row | undefined): ScanCount[] {
  return (child.rollUps ?? [])
    .filter((r) => r.kind === 'count' && r.where && Object.keys(r.where).length === 1)
    .map((r) => {
      const [field, values] = Object.entries(r.where!)[0];
      const enumName = lines.fields.find((f) => f.name === field)?.enum;
      const one = values.length === 1 ? findEnumValue(enums, enumName, values[0]) : undefined;
      const headerField = header.fields.find((f) => f.name === r.field);
      const v = Number(record?.[r.field]);
      return {
        field: r.field,
        labelKey: one?.label ?? headerField?.label ?? `fields.${r.field}`,
        color: one?.color ? CSS[one.color] : undefined,
        value: Number.isFinite(v) ? v : 0,
      };
    });
}

/** The scan call of a line resource. */
export const scanPath = (lines: Pick<ResourceDef, 'name' | 'apiPath'>): string => `${resourceApiPrefix(lines)}/scan`;
