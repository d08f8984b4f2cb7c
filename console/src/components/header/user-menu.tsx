import { useNavigate } from '../../lib/navigate';
import { useTranslation } from 'react-i18next';
import { useLogout } from '@refinedev/core';
import { App, Avatar, Button, Dropdown } from 'antd';
import { KeyOutlined, LogoutOutlined, TranslationOutlined, UserOutlined, VerticalAlignTopOutlined } from '@ant-design/icons';
import { LOCALES } from '../../constants';
import { LANGUAGE_NAMES } from '../../lib/language-names';
import { switchLanguage } from '../../providers/i18n-provider';
import { session } from '../../lib/session';
import { useShell } from '../../providers/shell-context';

interface Props {
  /** the "hide the header on scroll" setting (absent: not offered) */
  autoHide?: boolean;
  onAutoHideChange?: (on: boolean) => void;
}

/** User name with language, the header setting, change-password and logout (confirmed). */
export function UserMenu({ autoHide, onAutoHideChange }: Props) {
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
          ...(onAutoHideChange
            ? [
                {
                  key: 'auto-hide',
                  icon: <VerticalAlignTopOutlined />,
                  label: (
                    <span data-testid="header-auto-hide" data-on={autoHide ? 'true' : 'false'}>
                      {(autoHide ? '✓ ' : '') + t('header.autoHide')}
                    </span>
                  ),
                },
              ]
            : []),
          { key: 'password', icon: <KeyOutlined />, label: <span data-testid="change-password">{t('header.changePassword')}</span> },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: <span data-testid="logout">{t('header.logout')}</span> },
        ],
        triggerSubMenuAction: 'click',
        onClick: ({ key }) => {
          if (key.startsWith('lng:')) void switchLanguage(key.slice(4));
          if (key === 'auto-hide') onAutoHideChange?.(!autoHide);
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
        <span className="user-name" title={name}>
          {name}
        </span>
      </Button>
    </Dropdown>
  );
}
