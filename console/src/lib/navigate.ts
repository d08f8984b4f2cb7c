import { useCallback } from 'react';
import { useNavigate as useRouterNavigate, type NavigateOptions, type To } from 'react-router';

/** Moves to a path (or back/forward by a number of entries); returns nothing to await. */
export type Navigate = {
  (to: To, options?: NavigateOptions): void;
  (delta: number): void;
};

/**
 * react-router's navigate, typed as what it is under the console's <BrowserRouter>: a
 * synchronous move. Its declared `void | Promise<void>` is the data routers' answer (they wait
 * for loaders); this router has none, so there is never a promise to await and nothing can be
 * lost by not awaiting it. Screens (shell and plugins) use this one, so an event handler or an
 * effect can call it without a promise-handling ceremony at every call.
 */
export function useNavigate(): Navigate {
  const navigate = useRouterNavigate();
  return useCallback(
    (to: To | number, options?: NavigateOptions) => {
      // declarative router: navigate() returns undefined, never a promise (see above)
      void (typeof to === 'number' ? navigate(to) : navigate(to, options));
    },
    [navigate],
  ) as Navigate;
}
