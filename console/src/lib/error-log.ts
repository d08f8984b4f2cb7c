/**
 * In-app log of every API and front-end error (SPEC §8), shown at /log with a count badge.
 * Kept for the browser tab (sessionStorage, so a reload keeps it); a tiny observable so
 * React reads it with useSyncExternalStore.
 */
export type LogKind = 'api' | 'js';

export interface LogEntry {
  id: number;
  time: number;
  kind: LogKind;
  message: string;
  detail?: string;
  user?: string;
  page: string;
  /**
   * false for refusals the user was already shown and can act on (a validation message, an
   * expired session): kept in the log for diagnosis, left out of the badge's error count
   */
  counted?: boolean;
}

/** Entries the header badge counts: real errors, not refusals the user already saw. */
export const countedErrors = (list: readonly LogEntry[]): number => list.reduce((n, e) => (e.counted === false ? n : n + 1), 0);

const MAX_ENTRIES = 200;
const STORAGE_KEY = 'admin-error-log';

function restore(): LogEntry[] {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]') as unknown;
    return Array.isArray(saved) ? (saved as LogEntry[]) : [];
  } catch {
    return [];
  }
}

function save(): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(entries));
  } catch {
    // storage full or disabled: the in-memory log still works
  }
}

let entries: LogEntry[] = typeof sessionStorage === 'undefined' ? [] : restore();
let nextId = entries.reduce((n, e) => Math.max(n, e.id), 0) + 1;
let userLabel: string | undefined;
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

export const errorLog = {
  setUser(label: string | undefined): void {
    userLabel = label;
  },
  push(kind: LogKind, message: string, detail?: string, counted = true): void {
    const entry: LogEntry = {
      id: nextId++,
      time: Date.now(),
      kind,
      message,
      detail,
      user: userLabel,
      page: typeof location === 'undefined' ? '' : location.pathname + location.search,
      ...(counted ? {} : { counted: false }),
    };
    entries = [entry, ...entries].slice(0, MAX_ENTRIES);
    save();
    emit();
  },
  clear(): void {
    entries = [];
    save();
    emit();
  },
  entries: (): LogEntry[] => entries,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** Unhandled front-end errors land in the same log. */
export function captureGlobalErrors(): void {
  window.addEventListener('error', (e) => {
    errorLog.push('js', e.message || String(e.error), e.error instanceof Error ? e.error.stack : undefined);
  });
  // A page's script or style chunk that fails to preload (SPEC §8 lazy-load failures).
  window.addEventListener('vite:preloadError', (e) => {
    const payload = (e as Event & { payload?: unknown }).payload;
    errorLog.push('js', payload instanceof Error ? payload.message : 'chunk preload failed', payload instanceof Error ? payload.stack : undefined);
  });
  window.addEventListener('unhandledrejection', (e) => {
    const r = e.reason as unknown;
    // API failures are logged where they happen; log only genuine script errors here.
    if (r && typeof r === 'object' && 'apiLogged' in r) return;
    errorLog.push('js', r instanceof Error ? r.message : String(r), r instanceof Error ? r.stack : undefined);
  });
}
