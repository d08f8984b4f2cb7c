import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useParams, useSearchParams } from 'react-router';
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

// only loaded when asked for: the login page's own JavaScript stays small
const ForgotPassword = lazy(() => import('./forgot-password'));
const ActivateAccount = lazy(() => import('./activate-account'));

/**
 * /{entryCode?}/login in that organisation's theme (background, logo, colours), with "Forgot
 * password" and sign-in by a one-time ticket (`?ticket=…`, docs/ACCESS.md "Login tickets");
 * /{entryCode?}/activate?token=… sets a new user's first password, then signs in.
 */
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
  const activating = /\/activate\/?$/.test(useLocation().pathname);
  const [mode, setMode] = useState<'login' | 'forgot' | 'activate'>(activating ? 'activate' : 'login');
  const [notice, setNotice] = useState<string | null>(null);
  const ticket = query.get('ticket');
  const ticketUsed = useRef(false);

  // a ticket signs in at once, once: it leaves the address bar first (it is spent either way)
  useEffect(() => {
    if (!ticket || ticketUsed.current) return;
    ticketUsed.current = true;
    const url = new URL(window.location.href);
    url.searchParams.delete('ticket');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    login({ ticket, entryCode, redirect: query.get('redirect') ?? undefined });
  }, [ticket, entryCode, login, query]);

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
          {notice && <Alert type="success" showIcon message={notice} className="login-alert" data-testid="login-notice" />}
          {ticket && isPending && <Alert type="info" showIcon message={t('login.ticketSigningIn')} className="login-alert" data-testid="login-ticket" />}
          {mode === 'activate' ? (
            <Suspense fallback={null}>
              <ActivateAccount
                token={query.get('token') ?? ''}
                onDone={(name, newPassword) => {
                  setUsername(name);
                  setNotice(t('login.activate.done'));
                  // the link is spent: the address bar no longer holds it
                  window.history.replaceState(window.history.state, '', window.location.pathname.replace(/\/activate\/?$/, '/login'));
                  setMode('login');
                  login({ username: name, password: newPassword, entryCode });
                }}
              />
            </Suspense>
          ) : mode === 'forgot' ? (
            <Suspense fallback={null}>
              <ForgotPassword
                entryCode={entryCode}
                initialAccount={username.trim()}
                onCancel={() => setMode('login')}
                onDone={(account) => {
                  setUsername(account.includes('@') ? username : account);
                  setPassword('');
                  setTouched(false);
                  setNotice(t('login.passwordReset'));
                  setMode('login');
                }}
              />
            </Suspense>
          ) : (
            /* Two required fields need no form library; keeping antd Form out of the first page saves ~30 KB. */
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
              <Button
                type="link"
                block
                className="login-forgot"
                data-testid="login-forgot"
                onClick={() => {
                  setNotice(null);
                  setMode('forgot');
                }}
              >
                {t('login.forgot')}
              </Button>
            </form>
          )}
        </div>
      </div>
    </ConfigProvider>
  );
}
