import type { ComponentType } from 'react';
import { LAZY_PAGE_TIMEOUT_MS } from '../constants';

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

/** A page chunk that neither loads nor fails within 120 s (SPEC §9) counts as failed. */
export function lazyWithTimeout<P>(load: Loader<P>, ms = LAZY_PAGE_TIMEOUT_MS): Loader<P> {
  return () =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('chunk load timeout')), ms);
      load().then(
        (m) => {
          clearTimeout(timer);
          resolve(m);
        },
        (e: unknown) => {
          clearTimeout(timer);
          reject(e instanceof Error ? e : new Error(String(e)));
        },
      );
    });
}
