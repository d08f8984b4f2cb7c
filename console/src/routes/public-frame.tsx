/** The frame of a public page (public-pages.tsx): its own language choice, then the page. A chunk of its own, loaded only on public paths. */
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '../constants';
import { currentLocale, ensureLocale, i18n, loadPluginTexts, storeLocale } from '../i18n';
import { LANGUAGE_NAMES } from '../lib/language-names';
import { PageSpinner } from './page-spinner';
import type { PublicPage } from './public-pages';

let texts: Promise<void> | null = null;

export default function PublicFrame({ page }: { page: PublicPage }) {
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
          onChange={(value) => {
            const v = value as Locale;
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
