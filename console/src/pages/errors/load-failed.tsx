import { useTranslation } from 'react-i18next';
import { Button, Result } from 'antd';
import { loadAppState, resetAppState } from '../../providers/app-state';
import { loginPath, session } from '../../lib/session';

/** The signed-in shell could not load its identity, access lists or metadata. */
export default function LoadFailed({ message }: { message?: string }) {
  const { t } = useTranslation();
  return (
    <Result
      status="500"
      title={t('shell.loadFailed')}
      subTitle={message}
      extra={
        <>
          <Button type="primary" data-testid="shell-retry" onClick={() => void loadAppState(true)}>
            {t('shell.retry')}
          </Button>
          <Button
            data-testid="shell-logout"
            onClick={() => {
              const entry = session.entryCode();
              session.clear();
              resetAppState();
              location.assign(loginPath(entry));
            }}
          >
            {t('header.logout')}
          </Button>
        </>
      }
    />
  );
}
