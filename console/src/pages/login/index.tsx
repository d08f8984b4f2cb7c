import { useEffect } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useLogin } from '@refinedev/core';
import { Alert, Button, Card, ConfigProvider, Form, Input, Typography } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { APP_TITLE, TITLE_SUFFIX } from '../../constants';
import { imageUrl, themeColors } from '../../providers/org-theme';
import type { LoginParams } from '../../providers/auth-provider';
import { LanguageMenu } from '../../components/header/language-menu';
import { useOrgBasic } from './use-org-basic';

interface Values {
  username: string;
  password: string;
}

/** /{entryCode?}/login in that organisation's theme (background, logo, colours). */
export default function LoginPage() {
  const { t } = useTranslation();
  const { entryCode } = useParams();
  const [query] = useSearchParams();
  const { org, error: orgError } = useOrgBasic(entryCode);
  const { mutate: login, isPending, data } = useLogin<LoginParams>();
  const colors = themeColors(org?.theme);
  const logo = imageUrl(org?.theme?.largeLogo);
  const background = imageUrl(org?.theme?.loginBackground);
  const title = org?.name ?? APP_TITLE;

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
          <LanguageMenu compact={false} />
        </div>
        <Card className="login-card">
          <div className="login-brand">
            {logo && <img src={logo} alt={title} className="login-logo" />}
            <Typography.Title level={3} data-testid="login-org-name">
              {title}
            </Typography.Title>
            <Typography.Text type="secondary">{t('login.subtitle')}</Typography.Text>
          </div>
          {orgError && <Alert type="warning" showIcon message={t('login.unknownEntry', { code: entryCode })} className="login-alert" />}
          {data && !data.success && data.error && (
            <Alert type="error" showIcon message={data.error.message} className="login-alert" data-testid="login-error" />
          )}
          <Form<Values>
            layout="vertical"
            requiredMark={false}
            onFinish={(v) => login({ ...v, entryCode, redirect: query.get('redirect') ?? undefined })}
          >
            <Form.Item name="username" label={t('login.username')} rules={[{ required: true, message: t('login.usernameRequired') }]}>
              <Input prefix={<UserOutlined />} autoComplete="username" data-testid="login-username" autoFocus />
            </Form.Item>
            <Form.Item name="password" label={t('login.password')} rules={[{ required: true, message: t('login.passwordRequired') }]}>
              <Input.Password prefix={<LockOutlined />} autoComplete="current-password" data-testid="login-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={isPending} data-testid="login-submit">
              {t('login.submit')}
            </Button>
          </Form>
        </Card>
      </div>
    </ConfigProvider>
  );
}
