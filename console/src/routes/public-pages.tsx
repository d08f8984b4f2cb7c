/**
 * Pages served without signing in (menu items marked `public`, SPEC's /info pages): a plugin
 * lists them in `plugins/<id>/console/public.ts` (default export: `PublicPage[]`, each page a
 * lazy chunk). They render outside the shell — no session, metadata or menu — with the
 * translations loaded and a language choice of their own; what they show comes from public
 * calls only.
 */
import { lazy, Suspense } from 'react';
import { PageSpinner } from './page-spinner';
import type { LazyComponent } from '../plugin-contract';

export interface PublicPage {
  /** the route, equal to the menu item's path */
  path: string;
  component: LazyComponent;
}

const entries = import.meta.glob<PublicPage[]>('../../../plugins/*/console/public.{ts,tsx}', { eager: true, import: 'default' });
export const publicPages: PublicPage[] = Object.values(entries).flat();

// The frame (language choice, antd Select) is a chunk of its own: this module sits in the entry
// chunk (the routes are known before sign-in), which every first page loads.
const PublicFrame = lazy(() => import('./public-frame'));

export function PublicRoute({ page }: { page: PublicPage }) {
  return (
    <Suspense fallback={<PageSpinner />}>
      <PublicFrame page={page} />
    </Suspense>
  );
}
