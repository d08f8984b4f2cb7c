import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useLogout } from '@refinedev/core';
import { App, Avatar, Button, Dropdown } from 'antd';
import { KeyOutlined, LogoutOutlined, TranslationOutlined, UserOutlined } from '@ant-design/icons';
import { LOCALES } from '../../constants';
import { LANGUAGE_NAMES } from '../../lib/language-names';
import { switchLanguage } from '../../providers/i18n-provider';
import { session } from '../../lib/session';
import { useShell } from '../../providers/shell-context';

/** User name with change-password and logout (confirmed). */
export function UserMenu() {
  const { t, i18n } = useTranslation();
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
          {
            key: 'language',
            icon: <TranslationOutlined />,
            label: <span data-testid="user-language">{t('header.language')}</span>,
            children: LOCALES.map((l) => ({
              key: `lng:${l}`,
              label: <span data-testid={`user-language:${l}`}>{(l === i18n.language ? '✓ ' : '') + LANGUAGE_NAMES[l]}</span>,
            })),
          },
          { key: 'password', icon: <KeyOutlined />, label: <span data-testid="change-password">{t('header.changePassword')}</span> },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: <span data-testid="logout">{t('header.logout')}</span> },
        ],
        triggerSubMenuAction: 'click',
        onClick: ({ key }) => {
          if (key.startsWith('lng:')) void switchLanguage(key.slice(4));
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
