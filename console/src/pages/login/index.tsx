import { useEffect, useState, type FormEvent } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useLogin } from '@refinedev/core';
import { Alert, Button, ConfigProvider } from 'antd';
// Deep imports: the input barrel would also bring TextArea, Search and OTP into the first page.
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { APP_TITLE, TITLE_SUFFIX } from '../../constants';
import { themeColors } from '../../providers/org-theme';
import { useImageUrl } from '../../lib/use-image-url';
import type { LoginParams } from '../../providers/auth-provider';
import { LanguageLinks } from './language-links';
import { useOrgBasic } from './use-org-basic';

/** /{entryCode?}/login in that organisation's theme (background, logo, colours). */
export default function LoginPage() {
  const { t } = useTranslation();
  const { entryCode } = useParams();
  const [query] = useSearchParams();
  const { org, error: orgError } = useOrgBasic(entryCode);
  const { mutate: login, isPending, data } = useLogin<LoginParams>();
  const colors = themeColors(org?.theme);
  const logo = useImageUrl(org?.theme?.largeLogo);
  const background = useImageUrl(org?.theme?.loginBackground);
  const title = org?.name ?? APP_TITLE;
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    setTouched(true);
    if (!username.trim() || !password) return;
    login({ username: username.trim(), password, entryCode, redirect: query.get('redirect') ?? undefined });
  };

  useEffect(() => {
    document.title = t('login.title') + TITLE_SUFFIX;
  }, [t]);

  return (
    <ConfigProvider theme={{ token: { colorPrimary: colors.primary } }}>
      <div
        className="login-page"
        data-testid="login-page"
        style={{
          background: background ? `center / cover no-repeat url("${background}")` : `linear-gradient(135deg, ${colors.menu}, ${colors.primary})`,
        }}
      >
        <div className="login-language">
          <LanguageLinks />
        </div>
        {/* Plain markup instead of Card/Typography keeps the first page's JavaScript small. */}
        <div className="login-card">
          <div className="login-brand">
            {logo && <img src={logo} alt={title} className="login-logo" />}
            <h1 className="login-title" data-testid="login-org-name">
              {title}
            </h1>
            <div className="login-subtitle">{t('login.subtitle')}</div>
          </div>
          {orgError && <Alert type="warning" showIcon message={t('login.unknownEntry', { code: entryCode })} className="login-alert" />}
          {data && !data.success && data.error && (
            <Alert type="error" showIcon message={data.error.message} className="login-alert" data-testid="login-error" />
          )}
          {/* Two required fields need no form library; keeping antd Form out of the first page saves ~30 KB. */}
          <form className="login-form" noValidate onSubmit={submit}>
            <label className="login-label" htmlFor="login-username">
              {t('login.username')}
            </label>
            <Input
              id="login-username"
              prefix={<UserOutlined />}
              autoComplete="username"
              data-testid="login-username"
              autoFocus
              value={username}
              status={touched && !username.trim() ? 'error' : undefined}
              onChange={(e) => setUsername(e.target.value)}
            />
            <div className="login-field-error">{touched && !username.trim() ? t('login.usernameRequired') : null}</div>
            <label className="login-label" htmlFor="login-password">
              {t('login.password')}
            </label>
            <Password
              id="login-password"
              prefix={<LockOutlined />}
              autoComplete="current-password"
              data-testid="login-password"
              value={password}
              status={touched && !password ? 'error' : undefined}
              onChange={(e) => setPassword(e.target.value)}
            />
            <div className="login-field-error">{touched && !password ? t('login.passwordRequired') : null}</div>
            <Button type="primary" htmlType="submit" block loading={isPending} data-testid="login-submit">
              {t('login.submit')}
            </Button>
          </form>
        </div>
      </div>
    </ConfigProvider>
  );
}
