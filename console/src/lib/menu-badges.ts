import { createStore } from './store';

/** Menu badges are kept per path; plugins set, replace or remove them (SPEC §2). */
const store = createStore<Record<string, number | string>>({});

export const menuBadges = {
  set(path: string, value: number | string): void {
    store.set((b) => ({ ...b, [path]: value }));
  },
  remove(path: string): void {
    store.set((b) => {
      const { [path]: _gone, ...rest } = b;
      return rest;
    });
  },
  get: store.get,
  subscribe: store.subscribe,
};
