import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, App, Button, DatePicker, Form, Input, InputNumber, Modal, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import { CopyOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons';
import { Guarded, formatDateTime, request, useMetadata } from '@rti/console/plugin-api';

export interface NamedToken {
  id: number;
  name: string;
  hint: string;
  readOnly: boolean;
  resources: string[] | null;
  ratePerMinute: number;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
  status: 'active' | 'expired' | 'revoked';
}

const when = (v: string | null | undefined): string => formatDateTime(v, 'datetime', '-');
const STATUS_COLOR = { active: 'success', expired: 'warning', revoked: 'default' } as const;

/** Named API tokens: each limited to resources and/or reading, with expiry, last use, rate limit and revocation. */
export function NamedTokensPanel() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const metadata = useMetadata();
  const [rows, setRows] = useState<NamedToken[]>([]);
  const [loading, setLoading] = useState(true);
  const [creating, setCreating] = useState(false);
  const [fresh, setFresh] = useState<string>();
  const [form] = Form.useForm();

  const resourceOptions = useMemo(
    () =>
      Object.values(metadata.resources)
        .map((r) => ({ value: r.name, label: `${t(r.label ?? `resources.${r.name}`)} (${r.name})` }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [metadata, t],
  );

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setRows(await request<NamedToken[]>('/open-api-token/list'));
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setLoading(false);
    }
  }, [message]);
  useEffect(() => {
    void reload();
  }, [reload]);

  const create = async () => {
    const v = await form.validateFields();
    try {
      const made = await request<NamedToken & { token: string }>('/open-api-token/create', {
        name: v.name,
        readOnly: Boolean(v.readOnly),
        resources: v.resources?.length ? v.resources : undefined,
        ratePerMinute: v.ratePerMinute ?? undefined,
        expiresAt: v.expiresAt ? v.expiresAt.toISOString() : undefined,
      });
      setFresh(made.token);
      setCreating(false);
      form.resetFields();
      await reload();
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    }
  };
  const revoke = (row: NamedToken) =>
    modal.confirm({
      title: t('openApi.tokens.revoke'),
      content: t('openApi.tokens.revokeConfirm', { name: row.name }),
      okType: 'danger',
      okButtonProps: { 'data-testid': 'open-api-token-revoke-confirm' } as never,
      onOk: async () => {
        await request('/open-api-token/revoke', { id: row.id });
        await reload();
      },
    });

  return (
    <div data-testid="open-api-tokens">
      <Typography.Paragraph type="secondary">{t('openApi.tokens.intro')}</Typography.Paragraph>
      {fresh && (
        <Alert
          type="warning"
          showIcon
          closable
          onClose={() => setFresh(undefined)}
          style={{ marginBottom: 16 }}
          message={t('openApi.shownOnce')}
          description={
            <Space.Compact style={{ width: '100%' }}>
              <Input readOnly value={fresh} data-testid="open-api-named-token" />
              <Button icon={<CopyOutlined />} onClick={() => void navigator.clipboard.writeText(fresh).catch(() => undefined)}>
                {t('openApi.copy')}
              </Button>
            </Space.Compact>
          }
        />
      )}
      <Guarded call="/open-api-token/create">
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} style={{ marginBottom: 12 }} data-testid="open-api-token-new">
          {t('openApi.tokens.new')}
        </Button>
      </Guarded>
      <Table<NamedToken>
        rowKey="id"
        size="small"
        loading={loading}
        dataSource={rows}
        pagination={false}
        scroll={{ x: true }}
        columns={[
          { title: t('openApi.tokens.name'), dataIndex: 'name' },
          { title: t('openApi.tokens.token'), dataIndex: 'hint', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
          {
            title: t('openApi.tokens.scope'),
            render: (_, r) => (
              <Space size={4} wrap>
                {r.readOnly ? <Tag color="blue">{t('openApi.tokens.readOnly')}</Tag> : <Tag color="purple">{t('openApi.tokens.readWrite')}</Tag>}
                {r.resources ? r.resources.map((x) => <Tag key={x}>{x}</Tag>) : <Tag>{t('openApi.tokens.allResources')}</Tag>}
              </Space>
            ),
          },
          { title: t('openApi.tokens.rate'), dataIndex: 'ratePerMinute' },
          { title: t('openApi.tokens.expires'), dataIndex: 'expiresAt', render: when },
          { title: t('openApi.lastUsed'), dataIndex: 'lastUsedAt', render: when },
          {
            title: t('openApi.tokens.status'),
            dataIndex: 'status',
            render: (v: NamedToken['status']) => <Tag color={STATUS_COLOR[v]}>{t(`openApi.tokens.statuses.${v}`)}</Tag>,
          },
          {
            title: '',
            render: (_, r) =>
              r.status === 'revoked' ? null : (
                <Guarded call="/open-api-token/revoke">
                  <Button size="small" danger icon={<StopOutlined />} onClick={() => void revoke(r)} data-testid={`open-api-token-revoke-${r.id}`}>
                    {t('openApi.tokens.revoke')}
                  </Button>
                </Guarded>
              ),
          },
        ]}
      />
      <Modal
        open={creating}
        title={t('openApi.tokens.new')}
        onCancel={() => setCreating(false)}
        onOk={() => void create()}
        okButtonProps={{ 'data-testid': 'open-api-token-create' } as never}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" initialValues={{ readOnly: true }}>
          <Form.Item name="name" label={t('openApi.tokens.name')} rules={[{ required: true, max: 100 }]}>
            <Input data-testid="open-api-token-name" />
          </Form.Item>
          <Form.Item name="readOnly" label={t('openApi.tokens.readOnly')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="resources" label={t('openApi.tokens.resources')} extra={t('openApi.tokens.resourcesHelp')}>
            <Select mode="multiple" allowClear options={resourceOptions} optionFilterProp="label" />
          </Form.Item>
          <Form.Item name="expiresAt" label={t('openApi.tokens.expires')}>
            <DatePicker showTime style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="ratePerMinute" label={t('openApi.tokens.rate')} extra={t('openApi.tokens.rateHelp')}>
            <InputNumber min={1} max={100000} style={{ width: '100%' }} />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
