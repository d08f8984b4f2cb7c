import { useNavigate } from '../../lib/navigate';
import { useTranslation } from 'react-i18next';
import { Select } from 'antd';
import { HOME_PATH } from '../../constants';
import { session } from '../../lib/session';
import { showOrgSwitcher } from '../../lib/org-switcher';
import { loadAppState } from '../../providers/app-state';
import { useShell } from '../../providers/shell-context';
import { useTabStore } from '../tabs/tabs-context';

/** Switching organisation closes every tab, sets OrgId and reloads permissions and metadata. */
export function OrgSwitcher() {
  const { t } = useTranslation();
  const { user } = useShell();
  const store = useTabStore();
  const navigate = useNavigate();
  if (!showOrgSwitcher(user)) return null;
  const current = session.orgId() ?? String(user.loginOrgId ?? '');
  return (
    <Select
      className="org-switcher"
      size="small"
      data-testid="org-switcher"
      aria-label={t('header.organization')}
      value={current}
      popupMatchSelectWidth={false}
      options={(user.organizations ?? []).map((o) => ({
        value: String(o.orgId),
        label: <span data-testid={`org-option:${o.orgId}`}>{o.name}</span>,
      }))}
      onChange={(orgId: string) => {
        if (orgId === current) return;
        store.act('closeAll', HOME_PATH);
        session.setOrgId(orgId);
        navigate(HOME_PATH, { replace: true });
        void loadAppState(true);
      }}
    />
  );
}
