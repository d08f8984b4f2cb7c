/** Pure helpers of the shipping console (unit-tested in test/console-logic.test.ts). */

/** One refused row of `/ship-order-detail/batch/add`: SPEC §8 reason and the translated message. */
export interface BatchAddAnswer {
  added: number;
  failed: Array<{ row: number; sn: string; reason?: number; code: number; message: string }>;
}

/**
 * Serials from a scanner or typed text: one per line (a scan ends with Enter), commas,
 * semicolons, tabs and spaces separate too; blanks dropped. Repeats are kept so the server
 * reports them (SPEC §8 reason 60) instead of silently merging a double scan.
 */
export function parseSerials(text: string): string[] {
  return text
    .split(/[\s,;，；]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}
