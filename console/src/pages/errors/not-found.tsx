import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { TITLE_SUFFIX } from '../../constants';
import { ErrorPage } from './error-page';

export default function NotFoundPage() {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = t('pages.notFound') + TITLE_SUFFIX;
  }, [t]);
  return <ErrorPage status="404" />;
}
