/**
 * Organisation entry codes (the `/<entryCode>/login` address): one case, a safe character
 * set, and no two organisations whose codes look alike. A code is stored in lower case and
 * looked up without regard to case, so `/NORDIC/login` opens the organisation of `nordic`
 * and nobody can register `NORDIC` (or `n0rdic`) beside it as a look-alike login page.
 */
import { fn, col, where, type ModelStatic, type Model, type Transaction } from 'sequelize';

/** lower-case letters and digits, inner hyphens; 2–32 characters */
export const ENTRY_CODE = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])$/;

/** The stored form of a code as typed: trimmed, lower case (null when empty). */
export function normaliseEntryCode(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const v = raw.trim().toLowerCase();
  return v === '' ? null : v;
}

// Characters read as one another in a browser's address bar and on a printed login sheet.
const CONFUSABLE: Array<[RegExp, string]> = [
  [/rn/g, 'm'],
  [/vv/g, 'w'],
  [/[0]/g, 'o'],
  [/[1il|]/g, 'l'],
  [/[5]/g, 's'],
  [/[2]/g, 'z'],
  [/[8]/g, 'b'],
  [/[-_.]/g, ''],
];

/** What a code looks like: two codes with the same skeleton are look-alikes (`nordic`, `NORDIC`, `n0rdic`, `nor-dic`). */
export function entryCodeSkeleton(code: string): string {
  let s = code.toLowerCase();
  for (const [re, to] of CONFUSABLE) s = s.replace(re, to);
  return s;
}

export interface EntryCodeHolder {
  id: number;
  name: string;
  entryCode: string;
}

/** Every organisation with an entry code (id, name, code), for comparing a new code against. */
export async function entryCodeHolders(orgs: ModelStatic<Model>, transaction?: Transaction): Promise<EntryCodeHolder[]> {
  const rows = await orgs.findAll({ attributes: ['id', 'name', 'entryCode'], transaction });
  return rows
    .map((r) => ({ id: Number(r.get('id')), name: String(r.get('name')), entryCode: (r.get('entryCode') as string | null) ?? '' }))
    .filter((r) => r.entryCode !== '');
}

/** The organisation (other than `selfId`) whose code looks like `code`, if any. */
export function lookAlike(code: string, holders: EntryCodeHolder[], selfId: number | null): EntryCodeHolder | null {
  const mine = entryCodeSkeleton(code);
  return holders.find((h) => h.id !== selfId && entryCodeSkeleton(h.entryCode) === mine) ?? null;
}

/** Groups of existing organisations whose codes look alike (the start-up check). */
export function lookAlikeGroups(holders: EntryCodeHolder[]): EntryCodeHolder[][] {
  const bySkeleton = new Map<string, EntryCodeHolder[]>();
  for (const h of holders) {
    const k = entryCodeSkeleton(h.entryCode);
    bySkeleton.set(k, [...(bySkeleton.get(k) ?? []), h]);
  }
  return [...bySkeleton.values()].filter((g) => g.length > 1);
}

/** The organisation of an entry code, without regard to case (an exact match wins among legacy look-alikes). */
export async function findByEntryCode(orgs: ModelStatic<Model>, entryCode: string): Promise<Model | null> {
  const wanted = entryCode.trim();
  if (!wanted) return null;
  const rows = await orgs.findAll({ where: where(fn('lower', col(orgs.getAttributes().entryCode?.field ?? 'entry_code')), wanted.toLowerCase()), limit: 10 });
  return rows.find((r) => r.get('entryCode') === wanted) ?? rows.find((r) => r.get('entryCode') === wanted.toLowerCase()) ?? rows[0] ?? null;
}
