/**
 * Import dialog logic (SPEC §5, §7, §9): which files may be sent, and the state machine the
 * dialog runs — upload, poll `import/status` while processing (10): the first answer soon
 * (a small file is done in well under a second), then every second so a big file's progress
 * (processed of total) moves visibly — then show the finished result (20) with volumes and
 * per-row reasons, downloadable as a workbook with a reason column.
 */

/** SPEC §9 import upload limit. */
export const IMPORT_MAX_BYTES = 5_242_880;
/** the first status request after the upload was accepted, then one per period (issue 10: at least every second) */
export const IMPORT_FIRST_POLL_MS = 400;
export const IMPORT_POLL_MS = 1000;
// xls is sent to be told why not (the server answers that it reads only xlsx)
export const IMPORT_EXTENSIONS = ['xls', 'xlsx', 'csv'];
export const IMPORT_ACCEPT = '.xls,.xlsx,.csv';
/** SPEC §4 import status. */
export const IMPORT_PROCESSING = 10;
export const IMPORT_FINISHED = 20;

/** Why a chosen file may not be imported: its format (validation.importFormat) or its size (validation.importSize, KB), or null. */
export function importFileProblem(file: {
  name: string;
  size: number;
}): { key: string; reason: 'format' | 'size'; params: { size: number; formats: string } } | null {
  const ext = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '';
  const params = { size: IMPORT_MAX_BYTES / 1024, formats: 'xlsx, csv' };
  if (!IMPORT_EXTENSIONS.includes(ext)) return { key: 'validation.importFormat', reason: 'format', params };
  if (file.size > IMPORT_MAX_BYTES) return { key: 'validation.importSize', reason: 'size', params };
  return null;
}

export interface ImportError {
  row: number;
  code?: number | null;
  /** why, naming the offending value */
  reason: string;
  /** the column at fault, by its label in the reader's language */
  column?: string;
  value?: string;
}

/** `/<name>/import/status` answer (docs/API.md). */
export interface ImportStatus {
  importId: number;
  status: number;
  processedVolume?: number;
  /** rows in the file (counted at upload); null or absent from servers that do not count */
  totalVolume?: number | null;
  successVolume?: number;
  failedVolume?: number;
  importErrors?: ImportError[];
  message?: string | null;
}

export type ImportState =
  | { phase: 'idle' }
  | { phase: 'uploading'; fileName: string }
  | { phase: 'processing'; fileName: string; importId: number; polls: number; total?: number | null; status?: ImportStatus }
  | { phase: 'finished'; fileName: string; importId: number; result: ImportStatus }
  | { phase: 'failed'; fileName?: string; message: string };

export type ImportEvent =
  | { type: 'upload'; fileName: string }
  | { type: 'accepted'; importId: number; totalVolume?: number | null }
  | { type: 'status'; status: ImportStatus }
  | { type: 'error'; message: string }
  | { type: 'reset' };

/** Pure transition function; events that do not fit the current phase are ignored. */
export function importReducer(state: ImportState, event: ImportEvent): ImportState {
  switch (event.type) {
    case 'reset':
      return { phase: 'idle' };
    case 'upload':
      return state.phase === 'uploading' || state.phase === 'processing' ? state : { phase: 'uploading', fileName: event.fileName };
    case 'accepted':
      return state.phase === 'uploading'
        ? { phase: 'processing', fileName: state.fileName, importId: event.importId, polls: 0, total: event.totalVolume ?? null }
        : state;
    case 'status': {
      if (state.phase !== 'processing' || event.status.importId !== state.importId) return state;
      if (event.status.status === IMPORT_PROCESSING) return { ...state, polls: state.polls + 1, status: event.status };
      return { phase: 'finished', fileName: state.fileName, importId: state.importId, result: event.status };
    }
    case 'error':
      return state.phase === 'uploading' || state.phase === 'processing' ? { phase: 'failed', fileName: state.fileName, message: event.message } : state;
  }
}

/** Whether the dialog should ask for the status again (after pollDelay). */
export const shouldPoll = (s: ImportState): boolean => s.phase === 'processing';

/** How long until the next status request: soon for the first, then once a period. */
export const pollDelay = (s: ImportState): number => (s.phase === 'processing' && s.polls === 0 ? IMPORT_FIRST_POLL_MS : IMPORT_POLL_MS);

/**
 * How far a running import is: processed of the file's total, as a percentage that stays
 * below 100 until the job says it is finished (the total counts blank rows too). null when the
 * total is unknown.
 */
export function importProgress(s: ImportState): { processed: number; total: number; percent: number } | null {
  if (s.phase !== 'processing') return null;
  const total = s.status?.totalVolume ?? s.total ?? null;
  if (total === null || total === undefined || total <= 0) return null;
  const processed = s.status ? processedVolume(s.status) : 0;
  return { processed: Math.min(processed, total), total, percent: Math.min(99, Math.floor((processed / total) * 100)) };
}

/** Processed volume: the server's, or success + failed when it sends none. */
export const processedVolume = (r: ImportStatus): number => r.processedVolume ?? (r.successVolume ?? 0) + (r.failedVolume ?? 0);
