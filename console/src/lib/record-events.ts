/**
 * Records deleted in this console (through the data provider), so screens that still point at
 * them (their detail and edit tabs) can close instead of asking the server for rows that are gone.
 */
type Listener = (resource: string, ids: string[]) => void;
const listeners = new Set<Listener>();

export const recordEvents = {
  deleted(resource: string, ids: Array<string | number>): void {
    const keys = ids.map(String);
    for (const l of listeners) l(resource, keys);
  },
  onDeleted(l: Listener): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },
};
