import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, App, Button, Card, Descriptions, Empty, Input, Space, Spin, Tabs, Typography } from 'antd';
import { ApiOutlined, CopyOutlined, DeleteOutlined, FileTextOutlined, KeyOutlined, ReloadOutlined } from '@ant-design/icons';
import { Guarded, formatDateTime } from '@rti/console/plugin-api';
import { useOrgToken } from './use-org-token';
import { NamedTokensPanel } from './named-tokens-panel';
import { WebhooksPanel } from './webhooks-panel';

const when = (v: string | null | undefined): string => formatDateTime(v, 'datetime', '-');

/** The Open API screen: the REST API's docs, the organisation token, named tokens and webhooks. */
export default function OpenApiPage() {
  const { t } = useTranslation();
  return (
    <Card title={t('openApi.title')} data-testid="open-api-page">
      <Typography.Paragraph type="secondary">{t('openApi.intro')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 16 }}>
        <Button icon={<FileTextOutlined />} href="/rest/v1/docs" target="_blank" rel="noopener" data-testid="open-api-docs">
          {t('openApi.docs')}
        </Button>
        <Button icon={<ApiOutlined />} href="/rest/v1/openapi.json" target="_blank" rel="noopener" data-testid="open-api-json">
          {t('openApi.openapiJson')}
        </Button>
      </Space>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'org', label: t('openApi.tabs.orgToken'), children: <OrgTokenPanel /> },
          { key: 'tokens', label: t('openApi.tabs.tokens'), children: <NamedTokensPanel /> },
          { key: 'webhooks', label: t('openApi.tabs.webhooks'), children: <WebhooksPanel /> },
        ]}
      />
    </Card>
  );
}

/** Generate, refresh (confirmed) and delete (confirmed) the organisation token; the clear token shows once. */
function OrgTokenPanel() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const { info, loading, error, issue, revoke } = useOrgToken();
  const [fresh, setFresh] = useState<string>();
  const [busy, setBusy] = useState(false);

  const run = async (fn: () => Promise<void>): Promise<void> => {
    setBusy(true);
    try {
      await fn();
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const generate = () =>
    run(async () => {
      setFresh((await issue()).token);
    });
  const confirmRefresh = () => {
    modal.confirm({
      title: t('openApi.refresh'),
      content: t('openApi.refreshConfirm'),
      okButtonProps: { 'data-testid': 'open-api-refresh-confirm' } as never,
      onOk: generate,
    });
  };
  const confirmDelete = () => {
    modal.confirm({
      title: t('openApi.delete'),
      content: t('openApi.deleteConfirm'),
      okType: 'danger',
      okButtonProps: { 'data-testid': 'open-api-delete-confirm' } as never,
      onOk: () =>
        run(async () => {
          await revoke();
          setFresh(undefined);
          void message.success(t('openApi.deleted'));
        }),
    });
  };
  const copy = async (text: string) => {
    await navigator.clipboard.writeText(text).catch(() => undefined);
    void message.success(t('openApi.copied'));
  };

  return (
    <div>
      {error && <Alert type="error" showIcon message={error} className="open-api-alert" />}
      <Spin spinning={loading || busy}>
        {fresh && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            message={t('openApi.shownOnce')}
            description={
              <Space.Compact style={{ width: '100%' }}>
                <Input readOnly value={fresh} data-testid="open-api-token" />
                <Button icon={<CopyOutlined />} onClick={() => void copy(fresh)} data-testid="open-api-copy">
                  {t('openApi.copy')}
                </Button>
              </Space.Compact>
            }
          />
        )}
        {info ? (
          <Descriptions column={1} size="small" bordered style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('openApi.exists')}>
              <Typography.Text code data-testid="open-api-masked">
                {info.token}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('openApi.createdAt')}>{when(info.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('openApi.lastUsed')}>{when(info.lastUsedAt)}</Descriptions.Item>
          </Descriptions>
        ) : (
          !loading && <Empty description={t('openApi.none')} style={{ marginBottom: 16 }} />
        )}
        <Space>
          {info ? (
            <>
              <Guarded call="/organization-token/create">
                <Button type="primary" icon={<ReloadOutlined />} onClick={confirmRefresh} data-testid="open-api-refresh">
                  {t('openApi.refresh')}
                </Button>
              </Guarded>
              <Guarded call="/organization-token/delete">
                <Button danger icon={<DeleteOutlined />} onClick={confirmDelete} data-testid="open-api-delete">
                  {t('openApi.delete')}
                </Button>
              </Guarded>
            </>
          ) : (
            <Guarded call="/organization-token/create">
              <Button type="primary" icon={<KeyOutlined />} onClick={() => void generate()} data-testid="open-api-generate">
                {t('openApi.generate')}
              </Button>
            </Guarded>
          )}
        </Space>
      </Spin>
      {/* sign-in from an integrator's portal: the call its server makes with the token (docs/ACCESS.md "Login tickets") */}
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('openApi.ticketsTitle')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('openApi.ticketsIntro')}</Typography.Paragraph>
      <Typography.Paragraph>
        <pre data-testid="open-api-ticket-example">{`curl -X POST ${window.location.origin}/api/account/authLogin \\
  -H 'Token: rti_…' -H 'Content-Type: application/json' \\
  -d '{"username":"…"}'
# → data.loginPath "/{entryCode}/login?ticket=…": open ${window.location.origin} + loginPath in the user's browser`}</pre>
      </Typography.Paragraph>
    </div>
  );
}
