import { useTranslation } from 'react-i18next';
import { Button, Result } from 'antd';
import { loadAppState } from '../../providers/app-state';

/** The signed-in shell could not load its identity, access lists or metadata. */
export default function LoadFailed({ message }: { message?: string }) {
  const { t } = useTranslation();
  return (
    <Result
      status="500"
      title={t('shell.loadFailed')}
      subTitle={message}
      extra={
        <Button type="primary" data-testid="shell-retry" onClick={() => void loadAppState(true)}>
          {t('shell.retry')}
        </Button>
      }
    />
  );
}
