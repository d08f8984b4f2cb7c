/**
 * Records deleted in this console (through the data provider), so screens that still point at
 * them (their detail and edit tabs) can close instead of asking the server for rows that are gone;
 * and records written (created, updated, deleted), so what the shell derived from them — the
 * organisation switcher, the access lists — can be read again.
 */
type Listener = (resource: string, ids: string[]) => void;
type WriteListener = (resource: string) => void;
const listeners = new Set<Listener>();
const writeListeners = new Set<WriteListener>();

export const recordEvents = {
  deleted(resource: string, ids: Array<string | number>): void {
    const keys = ids.map(String);
    for (const l of listeners) l(resource, keys);
  },
  onDeleted(l: Listener): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  written(resource: string): void {
    for (const l of writeListeners) l(resource);
  },
  onWritten(l: WriteListener): () => void {
    writeListeners.add(l);
    return () => writeListeners.delete(l);
  },
};
