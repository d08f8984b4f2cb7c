import { useNavigate } from '../lib/navigate';
import { useTranslation } from 'react-i18next';
import { useCustomMutation } from '@refinedev/core';
import { App, Button, Card, Form, Input } from 'antd';
import { HOME_PATH } from '../constants';
import { PASSWORD_MAX, PASSWORD_MIN, PASSWORD_RULE } from '../lib/password-rule';

interface Values {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** /{entryCode?}/password-change with the SPEC §5 password rules. */
export default function PasswordChangePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const { mutate, mutation } = useCustomMutation();

  const submit = (values: Values): void =>
    mutate(
      { url: '/account/password/change', method: 'post', values, successNotification: false },
      {
        onSuccess: () => {
          void message.success(t('password.changed'));
          form.resetFields();
          navigate(HOME_PATH);
        },
      },
    );

  return (
    <Card title={t('password.title')} className="password-card" data-testid="password-change">
      <Form<Values> form={form} layout="vertical" onFinish={submit}>
        <Form.Item name="oldPassword" label={t('password.old')} rules={[{ required: true, message: t('password.required', { name: t('password.old') }) }]}>
          <Input.Password autoComplete="current-password" data-testid="password-old" />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label={t('password.new')}
          rules={[
            { required: true, message: t('password.required', { name: t('password.new') }) },
            { min: PASSWORD_MIN, max: PASSWORD_MAX, message: t('password.length', { min: PASSWORD_MIN, max: PASSWORD_MAX }) },
            { pattern: PASSWORD_RULE, message: t('password.pattern') },
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="password-new" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('password.confirm')}
          dependencies={['newPassword']}
          rules={[
            { required: true, message: t('password.required', { name: t('password.confirm') }) },
            ({ getFieldValue }) => ({
              validator: (_r, v) => (!v || v === getFieldValue('newPassword') ? Promise.resolve() : Promise.reject(new Error(t('password.mismatch')))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="password-confirm" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={mutation.isPending} data-testid="password-submit">
          {t('password.submit')}
        </Button>
      </Form>
    </Card>
  );
}
