/**
 * SPEC §9: when the user turns it on, the header hides once the page has scrolled more than
 * HEADER_HIDE_AFTER_PX, and comes back as soon as the page scrolls up (the tabs stay). Off by
 * default: SPEC lists it among the optional layout settings, not the defaults.
 * The choice is the user's, kept in this browser like the map type.
 */
import { useCallback, useEffect, useState } from 'react';
import { HEADER_HIDE_AFTER_PX } from '../../constants';

const key = (userId: string | number) => `admin-header-auto-hide:${userId}`;

function stored(userId: string | number): boolean {
  try {
    return localStorage.getItem(key(userId)) === '1';
  } catch {
    return false;
  }
}

/** The user's setting, with its setter. */
export function useHeaderAutoHideSetting(userId: string | number): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => stored(userId));
  const set = useCallback(
    (next: boolean) => {
      try {
        localStorage.setItem(key(userId), next ? '1' : '0');
      } catch {
        // private mode: the setting lasts for this page only
      }
      setOn(next);
    },
    [userId],
  );
  return [on, set];
}

/** Whether the header should be hidden now. */
export function useHeaderHidden(enabled: boolean): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    if (!enabled) return setHidden(false);
    let last = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      if (y <= HEADER_HIDE_AFTER_PX || y < last) setHidden(false);
      else if (y > last) setHidden(true);
      last = y;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [enabled]);
  return hidden;
}
