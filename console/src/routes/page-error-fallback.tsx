import { useTranslation } from 'react-i18next';
import { Button, Result } from 'antd';

/** What a page that threw (or whose chunk failed) shows instead. */
export default function PageErrorFallback({ error }: { error: Error }) {
  const { t } = useTranslation();
  const chunk = /chunk|dynamically imported module|Importing a module script failed/i.test(error.message);
  return (
    <Result
      status="500"
      title={chunk ? t('pages.chunkFailed') : t('pages.serverErrorText')}
      subTitle={error.message}
      extra={
        <Button type="primary" data-testid="page-error-reload" onClick={() => location.reload()}>
          {t('shell.reload')}
        </Button>
      }
    />
  );
}
