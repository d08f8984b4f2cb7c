import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Form, Input } from 'antd';
import { LockOutlined, MailOutlined, SafetyOutlined } from '@ant-design/icons';
import { request } from '../../providers/http-client';
import { PASSWORD_MAX, PASSWORD_MIN, PASSWORD_RULE } from '../../lib/password-rule';

interface Values {
  username: string;
  captcha: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * "Forgot password" on the login page (loaded when asked for, so the login page stays small):
 * the user names the account (user name or e-mail), gets a code by mail
 * (/account/send-captcha), then sets a new password with it (/account/forget-password). The
 * server answers the same whether or not the account exists, and so does this form.
 */
export default function ForgotPassword({
  entryCode,
  initialAccount,
  onDone,
  onCancel,
}: {
  entryCode?: string;
  initialAccount: string;
  onDone: (account: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [sent, setSent] = useState<{ minutes: number } | null>(null);
  const [sending, setSending] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const sendCode = async (): Promise<void> => {
    setError(null);
    try {
      await form.validateFields(['username']);
    } catch {
      return;
    }
    setSending(true);
    try {
      const answer = await request<{ minutes: number }>('/account/send-captcha', {
        username: form.getFieldValue('username').trim(),
        entryCode: entryCode || undefined,
      });
      setSent({ minutes: answer?.minutes ?? 10 });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSending(false);
    }
  };

  const submit = async (values: Values): Promise<void> => {
    setError(null);
    setSaving(true);
    try {
      const username = values.username.trim();
      await request('/account/forget-password', {
        username,
        entryCode: entryCode || undefined,
        captcha: values.captcha.trim(),
        newPassword: values.newPassword,
        confirmPassword: values.confirmPassword,
      });
      onDone(username);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  const required = (name: string) => ({ required: true, whitespace: true, message: t('password.required', { name }) });

  return (
    <div data-testid="forgot-password">
      <h2 className="login-forgot-title">{t('login.forgotTitle')}</h2>
      {error && <Alert type="error" showIcon message={error} className="login-alert" data-testid="forgot-error" />}
      {sent && <Alert type="success" showIcon message={t('login.codeSent', { minutes: sent.minutes })} className="login-alert" data-testid="forgot-sent" />}
      <Form<Values> form={form} layout="vertical" requiredMark={false} initialValues={{ username: initialAccount }} onFinish={(v) => void submit(v)}>
        <Form.Item name="username" label={t('login.account')} rules={[required(t('login.account'))]}>
          <Input prefix={<MailOutlined />} autoComplete="username" data-testid="forgot-account" disabled={!!sent} />
        </Form.Item>
        {!sent ? (
          <Button type="primary" block loading={sending} onClick={() => void sendCode()} data-testid="forgot-send">
            {t('login.sendCode')}
          </Button>
        ) : (
          <>
            <Form.Item
              name="captcha"
              label={t('login.code')}
              rules={[required(t('login.code')), { pattern: /^\s*\d{6}\s*$/, message: t('login.codePattern') }]}
            >
              <Input prefix={<SafetyOutlined />} autoComplete="one-time-code" inputMode="numeric" maxLength={10} data-testid="forgot-code" />
            </Form.Item>
            <Form.Item
              name="newPassword"
              label={t('password.new')}
              rules={[
                required(t('password.new')),
                { min: PASSWORD_MIN, max: PASSWORD_MAX, message: t('password.length', { min: PASSWORD_MIN, max: PASSWORD_MAX }) },
                { pattern: PASSWORD_RULE, message: t('password.pattern') },
              ]}
            >
              <Input.Password prefix={<LockOutlined />} autoComplete="new-password" data-testid="forgot-new" />
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
              <Input.Password prefix={<LockOutlined />} autoComplete="new-password" data-testid="forgot-confirm" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={saving} data-testid="forgot-submit">
              {t('login.resetSubmit')}
            </Button>
            <Button type="link" block loading={sending} onClick={() => void sendCode()} data-testid="forgot-resend">
              {t('login.sendAgain')}
            </Button>
          </>
        )}
        <Button type="link" block onClick={onCancel} data-testid="forgot-back">
          {t('login.backToLogin')}
        </Button>
      </Form>
    </div>
  );
}
