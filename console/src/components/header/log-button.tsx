import { useSyncExternalStore } from 'react';
import { useNavigate } from '../../lib/navigate';
import { useTranslation } from 'react-i18next';
import { Badge, Button, Tooltip } from 'antd';
import { BugOutlined } from '@ant-design/icons';
import { LOG_BADGE_OVERFLOW } from '../../constants';
import { countedErrors, errorLog } from '../../lib/error-log';
import { isAdministrator } from '../../lib/access';
import { canOpen, matchRoute } from '../../lib/routes';
import { useShell } from '../../providers/shell-context';

export function LogButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const entries = useSyncExternalStore(errorLog.subscribe, errorLog.entries);
  const count = countedErrors(entries);
  const { routes, access } = useShell();
  // Header entries needing an access value the user lacks are hidden (SPEC §2): the badge is
  // for administrators who may also open the log page, and counts real errors only.
  const logRoute = matchRoute('/log', routes)?.route;
  if (!logRoute || !canOpen(logRoute, access) || !isAdministrator(routes, access)) return null;
  return (
    <Tooltip title={t('header.log')}>
      <Badge count={count} overflowCount={LOG_BADGE_OVERFLOW} size="small" data-testid="log-badge" data-count={count}>
        <Button type="text" icon={<BugOutlined />} onClick={() => navigate('/log')} aria-label={t('header.log')} data-testid="log-button" />
      </Badge>
    </Tooltip>
  );
}
