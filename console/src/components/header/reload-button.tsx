import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Tooltip } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTabStore } from '../tabs/tabs-context';

/** Re-mounts the current page (its tab's content), keeping the tab. */
export function ReloadButton() {
  const { t } = useTranslation();
  const store = useTabStore();
  const { pathname } = useLocation();
  return (
    <Tooltip title={t('header.reload')}>
      <Button type="text" icon={<ReloadOutlined />} aria-label={t('header.reload')} data-testid="reload-tab" onClick={() => store.bump(pathname)} />
    </Tooltip>
  );
}
