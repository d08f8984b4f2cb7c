import { Col, Input, Radio, Row, Typography } from 'antd';
import { useState, type FC } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldDef } from '@rti/metadata/browser';
import type { FieldWidgetProps } from '../../meta/components/field-widgets';
import { FieldInput } from '../../meta/components/field-input';
import '../../meta/components/ref-select';

type Mode = 'none' | 'existing' | 'new';
interface NewUser {
  username: string;
  email: string;
  realName: string;
}

// the existing user is picked like any reference to a user
const USER_REF = { name: 'userId', type: 'ref', ref: { resource: 'user', label: 'name' } } as unknown as FieldDef;

/**
 * Who administers the new organisation besides the creator: nobody else, an existing user, or
 * a new one the server mails an activation link (its value `{ userId }` or `{ username, email,
 * realName, origin }`; the origin makes the link open this console).
 */
const FirstAdminInput: FC<FieldWidgetProps> = ({ onChange, disabled, id }) => {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>('none');
  const [userId, setUserId] = useState<number | undefined>();
  const [user, setUser] = useState<NewUser>({ username: '', email: '', realName: '' });

  const emit = (m: Mode, uid: number | undefined, u: NewUser) => {
    if (m === 'existing') onChange?.(uid ? { userId: uid } : undefined);
    else if (m === 'new') onChange?.({ ...u, origin: window.location.origin });
    else onChange?.(undefined);
  };
  const edit = (key: keyof NewUser, v: string) => {
    const next = { ...user, [key]: v };
    setUser(next);
    emit(mode, userId, next);
  };

  return (
    <div id={id} data-testid="first-admin">
      <Radio.Group
        value={mode}
        disabled={disabled}
        onChange={(e) => {
          const m = e.target.value as Mode;
          setMode(m);
          emit(m, userId, user);
        }}
        optionType="button"
        options={(['none', 'existing', 'new'] as const).map((m) => ({
          value: m,
          label: <span data-testid={`first-admin-mode:${m}`}>{t(`onboarding.firstAdmin.${m}`)}</span>,
        }))}
      />
      {mode === 'existing' && (
        <div style={{ marginTop: 12, maxWidth: 360 }} data-testid="first-admin-user">
          <FieldInput
            field={USER_REF}
            value={userId}
            disabled={disabled}
            placeholder={t('onboarding.firstAdmin.user')}
            onChange={(v) => {
              const uid = typeof v === 'number' ? v : v ? Number(v) : undefined;
              setUserId(uid);
              emit('existing', uid, user);
            }}
          />
        </div>
      )}
      {mode === 'new' && (
        <>
          <Row gutter={12} style={{ marginTop: 12 }}>
            {(['username', 'email', 'realName'] as const).map((key) => (
              <Col xs={24} md={8} key={key}>
                <Input
                  addonBefore={t(`onboarding.firstAdmin.${key}`)}
                  value={user[key]}
                  disabled={disabled}
                  autoComplete="off"
                  type={key === 'email' ? 'email' : 'text'}
                  data-testid={`first-admin-${key}`}
                  onChange={(e) => edit(key, e.target.value)}
                />
              </Col>
            ))}
          </Row>
          <Typography.Text type="secondary">{t('onboarding.firstAdmin.mailNote')}</Typography.Text>
        </>
      )}
    </div>
  );
};

export default FirstAdminInput;
