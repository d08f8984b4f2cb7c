/**
 * Paging a list whatever its total (issue 23 defect 6). Past the server's count cap a list's
 * total is a lower bound (`totalCapped`: the server counted up to the page asked for), so the
 * pager must not stop there: it offers one page past what is known, "go to page" goes to any
 * page (the server answers it and counts up to it), and a page asked for beyond the end comes
 * back empty with the exact total — the list then moves to the real last page. "Last page"
 * asks for the farthest page the server takes, which makes it count everything once.
 */

/** the farthest page the server answers (server/src/resources/query.ts MAX_PAGE) */
export const MAX_PAGE = 1_000_000;

/** The total the pager is given: past the cap one page more than is known, so "next" and "go to" go on. */
export function pagerTotal(total: number, capped: boolean, pageSize: number): number {
  return capped ? total + pageSize : total;
}

export function lastPageOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** A typed page number → the page to ask for (whole, 1 … MAX_PAGE), or null when it is no number. */
export function parsePage(text: string): number | null {
  const t = text.trim().replace(/[\s,._']/g, '');
  if (!/^\d{1,9}$/.test(t)) return null;
  return Math.min(MAX_PAGE, Math.max(1, Number(t)));
}

/**
 * After an answer: the page to move to when the one asked for lies past the end (the answer
 * then carries the exact total), else null.
 */
export function pageAfterAnswer(page: number, answer: { total: number; totalCapped?: boolean; rows: number }, pageSize: number): number | null {
  if (answer.totalCapped || answer.rows > 0 || page <= 1) return null;
  const last = lastPageOf(answer.total, pageSize);
  return last < page ? last : null;
}
