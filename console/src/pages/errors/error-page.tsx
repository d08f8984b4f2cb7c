import { useNavigate } from '../../lib/navigate';
import { useTranslation } from 'react-i18next';
import { Button, Result } from 'antd';
import { HOME_PATH } from '../../constants';

/** 403/404/500 with the SPEC texts and a button back home. */
export function ErrorPage({ status }: { status: '403' | '404' | '500' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const text = { '403': 'pages.forbiddenText', '404': 'pages.notFoundText', '500': 'pages.serverErrorText' }[status];
  return (
    <div data-testid={`page-${status}`}>
      <Result
        status={status}
        title={status}
        subTitle={t(text)}
        extra={
          <Button type="primary" data-testid="back-home" onClick={() => navigate(HOME_PATH)}>
            {t('pages.backHome')}
          </Button>
        }
      />
    </div>
  );
}
