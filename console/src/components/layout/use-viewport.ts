import { useSyncExternalStore } from 'react';
import { MOBILE_MAX_WIDTH, TABLET_MAX_WIDTH } from '../../constants';

/** SPEC §9 breakpoints: up to 600 px mobile, up to 992 px tablet, otherwise desktop. */
export type Viewport = 'mobile' | 'tablet' | 'desktop';

export const viewportOf = (width: number): Viewport => (width <= MOBILE_MAX_WIDTH ? 'mobile' : width <= TABLET_MAX_WIDTH ? 'tablet' : 'desktop');

const subscribe = (on: () => void) => {
  window.addEventListener('resize', on);
  return () => window.removeEventListener('resize', on);
};

/** The current breakpoint, re-rendering only when it changes. */
export function useViewport(): Viewport {
  return useSyncExternalStore(subscribe, () => viewportOf(window.innerWidth));
}
