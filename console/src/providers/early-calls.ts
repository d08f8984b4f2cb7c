/**
 * Calls a page starts before its screen has rendered (a list opened straight from the address
 * bar: meta/lib/early-list.ts), kept by path and body. The data provider takes a pending one
 * for exactly the same request once; a screen may take one that has already answered as its
 * first data. Anything else is asked for as usual. Kept small: it sits in the entry chunk.
 */

/** An early answer older than this is not used (the screen asks again). */
export const EARLY_FRESH_MS = 10_000;

interface Early {
  at: number;
  answer: Promise<unknown>;
  settled?: { value: unknown };
}

const pending = new Map<string, Early>();

/** JSON with object keys sorted: the same request whatever order its filters were added in. */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}

const keyOf = (path: string, body: unknown): string => `${path} ${canonical(body)}`;

/** Starts `run` for this request unless it is already under way. */
export function startEarly(path: string, body: unknown, run: () => Promise<unknown>): void {
  const key = keyOf(path, body);
  if (pending.has(key)) return;
  const early: Early = { at: Date.now(), answer: run() };
  early.answer.then(
    (value) => (early.settled = { value }),
    () => pending.delete(key), // the screen asks again and shows that failure
  );
  pending.set(key, early);
}

function take(key: string): Early | undefined {
  const e = pending.get(key);
  pending.delete(key);
  return e && Date.now() - e.at < EARLY_FRESH_MS ? e : undefined;
}

/** The data provider's side: the pending (or answered) early call for exactly this request, once. */
export function takeEarly<T>(path: string, body: unknown): Promise<T> | undefined {
  return pending.size ? (take(keyOf(path, body))?.answer as Promise<T> | undefined) : undefined;
}

/** A screen's side, during its first render: the answer if it has already arrived (taken), with when it was asked for. */
export function takeArrived<T>(path: string, body: unknown): { value: T; at: number } | undefined {
  if (!pending.size) return undefined;
  const key = keyOf(path, body);
  if (!pending.get(key)?.settled) return undefined;
  const e = take(key);
  return e?.settled ? { value: e.settled.value as T, at: e.at } : undefined;
}

/** for tests */
export function clearEarly(): void {
  pending.clear();
}
