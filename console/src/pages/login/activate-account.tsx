import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Form, Input } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { request } from '../../providers/http-client';
import { PASSWORD_MAX, PASSWORD_MIN, PASSWORD_RULE } from '../../lib/password-rule';

interface Values {
  newPassword: string;
  confirmPassword: string;
}
interface Account {
  username: string;
  realName: string | null;
  organization: { name: string; entryCode: string | null } | null;
}

/**
 * `/{entryCode}/activate?token=…` (docs/ACCESS.md "First administrator"): the link mailed to a
 * new user. Says whose account it opens (/account/activation) or why it no longer does (used,
 * expired, unknown — the server's words), sets the first password (/account/activate, SPEC §5
 * rule) and hands user name and password back to the login page, which signs in.
 */
export default function ActivateAccount({ token, onDone }: { token: string; onDone: (username: string, password: string) => void }) {
  const { t } = useTranslation();
  const [account, setAccount] = useState<Account | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!token) return;
    let live = true;
    request<Account>('/account/activation', { token }).then(
      (a) => live && setAccount(a),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [token]);

  const submit = async (values: Values): Promise<void> => {
    setError(null);
    setSaving(true);
    try {
      const done = await request<{ username: string }>('/account/activate', {
        token,
        newPassword: values.newPassword,
        confirmPassword: values.confirmPassword,
      });
      onDone(done.username, values.newPassword);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setSaving(false);
    }
  };

  const required = (name: string) => ({ required: true, message: t('password.required', { name }) });
  return (
    <div data-testid="activate">
      <h2 className="login-forgot-title">{t('login.activate.title')}</h2>
      {!token && <Alert type="error" showIcon message={t('login.activate.noToken')} className="login-alert" data-testid="activate-error" />}
      {error && <Alert type="error" showIcon message={error} className="login-alert" data-testid="activate-error" />}
      {token && !account && !error && <Alert type="info" showIcon message={t('login.activate.checking')} className="login-alert" />}
      {account && (
        <Form<Values> layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)}>
          <p data-testid="activate-intro">
            {account.organization
              ? t('login.activate.intro', { username: account.username, org: account.organization.name })
              : t('login.activate.introNoOrg', { username: account.username })}
          </p>
          <Form.Item
            name="newPassword"
            label={t('password.new')}
            extra={t('password.pattern')}
            rules={[
              required(t('password.new')),
              { min: PASSWORD_MIN, max: PASSWORD_MAX, message: t('password.length', { min: PASSWORD_MIN, max: PASSWORD_MAX }) },
              { pattern: PASSWORD_RULE, message: t('password.pattern') },
            ]}
          >
            <Input.Password prefix={<LockOutlined />} autoComplete="new-password" data-testid="activate-new" autoFocus />
          </Form.Item>
          <Form.Item
            name="confirmPassword"
            label={t('password.confirm')}
            dependencies={['newPassword']}
            rules={[
              required(t('password.confirm')),
              ({ getFieldValue }) => ({
                validator: (_, value) =>
                  !value || getFieldValue('newPassword') === value ? Promise.resolve() : Promise.reject(new Error(t('password.mismatch'))),
              }),
            ]}
          >
            <Input.Password prefix={<LockOutlined />} autoComplete="new-password" data-testid="activate-confirm" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={saving} data-testid="activate-submit">
            {t('login.activate.submit')}
          </Button>
        </Form>
      )}
    </div>
  );
}
