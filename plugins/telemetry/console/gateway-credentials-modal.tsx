import { Alert, Button, Modal, Space, Table, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { FC } from 'react';
import { useTranslation } from 'react-i18next';

export interface GeneratedCredential {
  id: number;
  sn: string;
  mqttUsername: string;
  mqttPassword: string;
}

const csvCell = (v: string) => (/[",;\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/**
 * Generated MQTT passwords, shown this once (the server keeps only their hashes): each with a copy
 * button, all of them as a CSV to hand to whoever configures the gateways.
 */
export const CredentialsModal: FC<{ credentials: GeneratedCredential[]; onClose: () => void }> = ({ credentials, onClose }) => {
  const { t } = useTranslation();
  const download = () => {
    const text = ['sn,mqttUsername,mqttPassword', ...credentials.map((c) => [c.sn, c.mqttUsername, c.mqttPassword].map(csvCell).join(','))].join('\r\n');
    const url = URL.createObjectURL(new Blob(['\ufeff' + text], { type: 'text/csv;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'mqtt-credentials.csv';
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <Modal
      open
      width={720}
      title={t('telemetry.gateway.credentialsTitle')}
      onCancel={onClose}
      maskClosable={false}
      footer={
        <Button type="primary" onClick={onClose} data-testid="gateway-credentials-close">
          {t('telemetry.gateway.close')}
        </Button>
      }
    >
      <div data-testid="gateway-credentials">
        <Alert type="warning" showIcon message={t('telemetry.gateway.shownOnce')} style={{ marginBottom: 12 }} />
        {credentials.length === 0 ? (
          <Alert type="info" showIcon message={t('telemetry.gateway.noneMissing')} />
        ) : (
          <>
            <Table
              size="small"
              rowKey="id"
              pagination={{ pageSize: 10, hideOnSinglePage: true, size: 'small' }}
              dataSource={credentials}
              columns={[
                { key: 'sn', dataIndex: 'sn', title: t('telemetry.gateway.sn') },
                {
                  key: 'u',
                  dataIndex: 'mqttUsername',
                  title: t('telemetry.gateway.username'),
                  render: (v: string) => <Typography.Text copyable>{v}</Typography.Text>,
                },
                {
                  key: 'p',
                  dataIndex: 'mqttPassword',
                  title: t('telemetry.gateway.password'),
                  render: (v: string, c) => (
                    <Typography.Text code copyable data-testid={`gateway-password:${c.sn}`}>
                      {v}
                    </Typography.Text>
                  ),
                },
              ]}
            />
            <Space style={{ marginTop: 8 }}>
              <Button icon={<DownloadOutlined />} onClick={download} data-testid="gateway-credentials-download">
                {t('telemetry.gateway.download')}
              </Button>
            </Space>
          </>
        )}
      </div>
    </Modal>
  );
};
