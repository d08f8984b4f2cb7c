import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Card, Empty, Switch, Table, Typography } from 'antd';
import { refreshIdentity, request, useCan } from '@rti/console/plugin-api';

interface Switchable {
  plugin: string;
  title: string;
  enabled: boolean;
}

/**
 * /report/customer-reports: the customer report plugins installed on this server, each switched
 * on or off for the current organisation (off: its menu entries and calls are absent here).
 */
export default function CustomerReportsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [rows, setRows] = useState<Switchable[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const mayChange = useCan({ call: '/organization/plugin/update' });
  const load = useCallback(() => request<Switchable[]>('/organization/plugin/list', {}).then(setRows, () => setRows([])), []);
  useEffect(() => void load(), [load]);

  const toggle = async (row: Switchable, enabled: boolean) => {
    setBusy(row.plugin);
    try {
      await request('/organization/plugin/update', { plugin: row.plugin, enabled });
      void message.success(t(enabled ? 'customerReports.switchedOn' : 'customerReports.switchedOff', { name: row.title }));
      await load();
      // the menu follows at once
      await refreshIdentity();
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card title={t('customerReports.title')} data-testid="customer-reports-page">
      <Typography.Paragraph type="secondary">{t('customerReports.intro')}</Typography.Paragraph>
      <Table<Switchable>
        rowKey="plugin"
        size="small"
        loading={rows === null}
        dataSource={rows ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={t('customerReports.none')} /> }}
        columns={[
          { key: 'title', title: t('customerReports.report'), dataIndex: 'title' },
          { key: 'plugin', title: t('customerReports.plugin'), dataIndex: 'plugin', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
          {
            key: 'enabled',
            title: t('customerReports.enabled'),
            width: 140,
            render: (_: unknown, r) => (
              <Switch
                checked={r.enabled}
                loading={busy === r.plugin}
                disabled={!mayChange || (busy !== null && busy !== r.plugin)}
                onChange={(on) => void toggle(r, on)}
                data-testid={`customer-report-switch-${r.plugin}`}
              />
            ),
          },
        ]}
      />
    </Card>
  );
}
