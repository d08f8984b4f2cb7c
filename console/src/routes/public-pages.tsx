/**
 * Pages served without signing in (menu items marked `public`, SPEC's /info pages): a plugin
 * lists them in `plugins/<id>/console/public.ts` (default export: `PublicPage[]`, each page a
 * lazy chunk). They render outside the shell — no session, metadata or menu — with the
 * translations loaded and a language choice of their own; what they show comes from public
 * calls only.
 */
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '../constants';
import { currentLocale, ensureLocale, i18n, loadPluginTexts, storeLocale } from '../i18n';
import { LANGUAGE_NAMES } from '../lib/language-names';
import { PageSpinner } from './page-spinner';
import type { LazyComponent } from '../plugin-api';

export interface PublicPage {
  /** the route, equal to the menu item's path */
  path: string;
  component: LazyComponent;
}

const entries = import.meta.glob<PublicPage[]>('../../../plugins/*/console/public.{ts,tsx}', { eager: true, import: 'default' });
export const publicPages: PublicPage[] = Object.values(entries).flat();

let texts: Promise<void> | null = null;

export function PublicRoute({ page }: { page: PublicPage }) {
  const Page = useMemo(() => lazy(page.component), [page]);
  const { t } = useTranslation();
  const [ready, setReady] = useState(false);
  const [lng, setLng] = useState<Locale>(currentLocale());
  useEffect(() => {
    let live = true;
    texts ??= loadPluginTexts();
    void Promise.all([texts, ensureLocale(lng)]).then(async () => {
      if (i18n.language !== lng) await i18n.changeLanguage(lng);
      if (live) setReady(true);
    });
    return () => {
      live = false;
    };
  }, [lng]);
  if (!ready) return <PageSpinner />;
  return (
    <div style={{ maxWidth: 960, margin: '0 auto', padding: 16 }}>
      <div style={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Select
          size="small"
          aria-label={t('header.language', { defaultValue: 'Language' })}
          value={lng}
          style={{ width: 110 }}
          options={LOCALES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
          onChange={(v: Locale) => {
            storeLocale(v);
            setReady(false);
            setLng(v);
          }}
        />
      </div>
      <Suspense fallback={<PageSpinner />}>
        <Page />
      </Suspense>
    </div>
  );
}
