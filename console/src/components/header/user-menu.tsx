import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useLogout } from '@refinedev/core';
import { App, Avatar, Button, Dropdown } from 'antd';
import { KeyOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { session } from '../../lib/session';
import { useShell } from '../../providers/shell-context';

/** User name with change-password and logout (confirmed). */
export function UserMenu() {
  const { t } = useTranslation();
  const { user } = useShell();
  const { modal } = App.useApp();
  const { mutate: logout } = useLogout();
  const navigate = useNavigate();
  const entry = user.loginEntryCode ?? session.entryCode();
  const name = user.realName || user.username || user.name || String(user.userId);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'password', icon: <KeyOutlined />, label: <span data-testid="change-password">{t('header.changePassword')}</span> },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: <span data-testid="logout">{t('header.logout')}</span> },
        ],
        onClick: ({ key }) => {
          if (key === 'password') navigate(entry ? `/${entry}/password-change` : '/password-change');
          if (key === 'logout') {
            modal.confirm({
              title: t('header.logoutConfirmTitle'),
              content: t('header.logoutConfirm'),
              okText: t('header.logout'),
              cancelText: t('buttons.cancel'),
              okButtonProps: { 'data-testid': 'logout-confirm' } as never,
              onOk: () => logout(),
            });
          }
        },
      }}
    >
      <Button type="text" className="user-menu" data-testid="user-menu">
        <Avatar size="small" icon={<UserOutlined />} />
        <span className="user-name">{name}</span>
      </Button>
    </Dropdown>
  );
}
