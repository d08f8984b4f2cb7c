import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, App, Button, Form, Input, Modal, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import { CopyOutlined, DeleteOutlined, PlusOutlined, ReloadOutlined, SendOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { Guarded, formatDateTime, request } from '@rti/console/plugin-api';

interface Webhook {
  id: number;
  url: string;
  events: string[];
  description: string | null;
  active: boolean;
  secret: string;
  createdAt: string;
}
interface Delivery {
  id: number;
  webhookId: number;
  event: string;
  status: number;
  attempts: number;
  nextAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  occurredAt: string;
  deliveredAt: string | null;
}

const when = (v: string | null | undefined): string => formatDateTime(v, 'datetime', '-');
const DELIVERY = { 10: ['pending', 'processing'], 20: ['delivered', 'success'], 30: ['failed', 'error'] } as Record<number, [string, string]>;

/** Webhook subscriptions (secret shown once), their deliveries with status, and resend. */
export function WebhooksPanel() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [hooks, setHooks] = useState<Webhook[]>([]);
  const [events, setEvents] = useState<Array<{ value: string; label: string }>>([]);
  const [deliveries, setDeliveries] = useState<{ list: Delivery[]; total: number }>({ list: [], total: 0 });
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<number>();
  const [loading, setLoading] = useState(true);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string>();
  const [form] = Form.useForm();

  const fail = useCallback((e: unknown) => void message.error(e instanceof Error ? e.message : String(e)), [message]);
  const reload = useCallback(async () => {
    setLoading(true);
    try {
      const [h, d] = await Promise.all([
        request<Webhook[]>('/webhook/list'),
        request<{ list: Delivery[]; total: number }>('/webhook/delivery/list', { page, limit: 20, ...(selected ? { webhookId: selected } : {}) }),
      ]);
      setHooks(h);
      setDeliveries(d);
    } catch (e) {
      fail(e);
    } finally {
      setLoading(false);
    }
  }, [fail, page, selected]);
  useEffect(() => {
    void reload();
  }, [reload]);
  useEffect(() => {
    request<Array<{ event: string; label: string }>>('/webhook/events')
      .then((list) =>
        setEvents([{ value: '*', label: t('openApi.webhooks.allEvents') }, ...list.map((e) => ({ value: e.event, label: `${e.label} (${e.event})` }))]),
      )
      .catch(() => undefined);
  }, [t]);

  const run = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      await reload();
    } catch (e) {
      fail(e);
    }
  };
  const create = async () => {
    const v = await form.validateFields();
    await run(async () => {
      const made = await request<Webhook>('/webhook/create', { url: v.url, events: v.events, description: v.description || undefined });
      setSecret(made.secret);
      setCreating(false);
      form.resetFields();
    });
  };
  const remove = (h: Webhook) =>
    modal.confirm({
      title: t('openApi.webhooks.delete'),
      content: t('openApi.webhooks.deleteConfirm', { url: h.url }),
      okType: 'danger',
      onOk: () => run(() => request('/webhook/delete', { id: h.id })),
    });

  return (
    <div data-testid="open-api-webhooks">
      <Typography.Paragraph type="secondary">{t('openApi.webhooks.intro')}</Typography.Paragraph>
      {secret && (
        <Alert
          type="warning"
          showIcon
          closable
          onClose={() => setSecret(undefined)}
          style={{ marginBottom: 16 }}
          message={t('openApi.webhooks.secretOnce')}
          description={
            <Space.Compact style={{ width: '100%' }}>
              <Input readOnly value={secret} data-testid="open-api-webhook-secret" />
              <Button icon={<CopyOutlined />} onClick={() => void navigator.clipboard.writeText(secret).catch(() => undefined)}>
                {t('openApi.copy')}
              </Button>
            </Space.Compact>
          }
        />
      )}
      <Space style={{ marginBottom: 12 }}>
        <Guarded call="/webhook/create">
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="open-api-webhook-new">
            {t('openApi.webhooks.new')}
          </Button>
        </Guarded>
        <Button icon={<ReloadOutlined />} onClick={() => void reload()}>
          {t('openApi.webhooks.refresh')}
        </Button>
      </Space>
      <Table<Webhook>
        rowKey="id"
        size="small"
        loading={loading}
        dataSource={hooks}
        pagination={false}
        scroll={{ x: true }}
        rowSelection={{ type: 'radio', selectedRowKeys: selected ? [selected] : [], onChange: (keys) => (setSelected(keys[0] as number), setPage(1)) }}
        columns={[
          { title: 'URL', dataIndex: 'url', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
          { title: t('openApi.webhooks.events'), dataIndex: 'events', render: (v: string[]) => v.map((e) => <Tag key={e}>{e}</Tag>) },
          { title: t('openApi.webhooks.description'), dataIndex: 'description' },
          {
            title: t('openApi.webhooks.active'),
            dataIndex: 'active',
            render: (v: boolean, h) => (
              <Switch size="small" checked={v} onChange={(active) => void run(() => request('/webhook/update', { id: h.id, active }))} />
            ),
          },
          { title: t('openApi.createdAt'), dataIndex: 'createdAt', render: when },
          {
            title: '',
            render: (_, h) => (
              <Space>
                <Button size="small" icon={<ThunderboltOutlined />} onClick={() => void run(() => request('/webhook/ping', { id: h.id }))}>
                  {t('openApi.webhooks.ping')}
                </Button>
                <Button size="small" danger icon={<DeleteOutlined />} onClick={() => void remove(h)} />
              </Space>
            ),
          },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('openApi.webhooks.deliveries')}
        {selected ? (
          <Button type="link" size="small" onClick={() => setSelected(undefined)}>
            {t('openApi.webhooks.allWebhooks')}
          </Button>
        ) : null}
      </Typography.Title>
      <Table<Delivery>
        rowKey="id"
        size="small"
        loading={loading}
        dataSource={deliveries.list}
        scroll={{ x: true }}
        data-testid="open-api-deliveries"
        expandable={{ expandedRowRender: (d) => <DeliveryBody id={d.id} /> }}
        pagination={{ current: page, pageSize: 20, total: deliveries.total, onChange: setPage, showSizeChanger: false }}
        columns={[
          { title: '#', dataIndex: 'id' },
          { title: t('openApi.webhooks.event'), dataIndex: 'event' },
          {
            title: t('openApi.webhooks.status'),
            dataIndex: 'status',
            render: (v: number) => <Tag color={DELIVERY[v]?.[1]}>{t(`openApi.webhooks.statuses.${DELIVERY[v]?.[0] ?? 'pending'}`)}</Tag>,
          },
          { title: t('openApi.webhooks.attempts'), dataIndex: 'attempts' },
          { title: t('openApi.webhooks.answer'), render: (_, d) => (d.lastError ? `${d.lastStatus ?? ''} ${d.lastError}`.trim() : (d.lastStatus ?? '-')) },
          { title: t('openApi.webhooks.occurred'), dataIndex: 'occurredAt', render: when },
          { title: t('openApi.webhooks.delivered'), dataIndex: 'deliveredAt', render: when },
          { title: t('openApi.webhooks.next'), render: (_, d) => (d.status === 10 ? when(d.nextAt) : '-') },
          {
            title: '',
            render: (_, d) => (
              <Guarded call="/webhook/delivery/resend">
                <Button
                  size="small"
                  icon={<SendOutlined />}
                  onClick={() => void run(() => request('/webhook/delivery/resend', { id: d.id }))}
                  data-testid={`open-api-resend-${d.id}`}
                >
                  {t('openApi.webhooks.resend')}
                </Button>
              </Guarded>
            ),
          },
        ]}
      />
      <Modal open={creating} title={t('openApi.webhooks.new')} onCancel={() => setCreating(false)} onOk={() => void create()} destroyOnHidden>
        <Form form={form} layout="vertical">
          <Form.Item name="url" label="URL" rules={[{ required: true, type: 'url', max: 2000 }]} extra={t('openApi.webhooks.urlHelp')}>
            <Input placeholder="https://erp.example.com/rti-webhook" data-testid="open-api-webhook-url" />
          </Form.Item>
          <Form.Item name="events" label={t('openApi.webhooks.events')} rules={[{ required: true }]}>
            <Select mode="multiple" allowClear options={events} optionFilterProp="label" />
          </Form.Item>
          <Form.Item name="description" label={t('openApi.webhooks.description')} rules={[{ max: 255 }]}>
            <Input />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}

/** What the receiver got (or gets) for one delivery, read when its row is expanded. */
function DeliveryBody({ id }: { id: number }) {
  const [body, setBody] = useState<string>();
  useEffect(() => {
    request<{ body: unknown }>('/webhook/delivery/get', { id })
      .then((d) => setBody(JSON.stringify(d.body, null, 2)))
      .catch((e: unknown) => setBody(e instanceof Error ? e.message : String(e)));
  }, [id]);
  return (
    <pre data-testid={`open-api-delivery-body-${id}`} style={{ maxHeight: 320, overflow: 'auto', margin: 0 }}>
      {body ?? '…'}
    </pre>
  );
}
