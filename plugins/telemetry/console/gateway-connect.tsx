import { Alert, App, Button, Card, Descriptions, Popconfirm, Spin, Typography } from 'antd';
import { KeyOutlined } from '@ant-design/icons';
import { useEffect, useState, type FC } from 'react';
import { useTranslation } from 'react-i18next';
import { request, useCan, type ZoneProps } from '@rti/console/plugin-api';
import { CredentialsModal, type GeneratedCredential } from './gateway-credentials-modal';

interface MqttInfo {
  broker: { host: string; port: number; tls: boolean } | null;
  username: string | null;
  clientId: string;
  hasPassword: boolean;
  topics: { publish: string[]; subscribe: string[]; lastWill: { topic: string; payload: string } | null };
  command: string | null;
  macMissing: boolean;
}

/**
 * On a gateway's detail page: how to connect it — broker address, its MQTT user, the topics it
 * publishes and may subscribe to, its last will, and a copyable test command; a new generated
 * password on request (shown once).
 */
const GatewayConnect: FC<ZoneProps> = ({ resource, record, refresh }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const id = Number(record.id);
  const [info, setInfo] = useState<MqttInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<GeneratedCredential[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);
  const mayGenerate = useCan({ call: `/${resource.name}/mqtt-credentials` });

  useEffect(() => {
    let live = true;
    request<MqttInfo>(`/${resource.name}/mqtt-info`, { id }).then(
      (i) => live && setInfo(i),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [resource.name, id, version]);

  const generate = async () => {
    setBusy(true);
    try {
      const answer = await request<{ gateways: GeneratedCredential[] }>(`/${resource.name}/mqtt-credentials`, { ids: [id] });
      setShown(answer.gateways);
      setVersion((v) => v + 1);
      refresh();
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  if (error) return <Alert type="error" showIcon message={error} />;
  if (!info) return <Spin size="small" />;
  const broker = info.broker ? `${info.broker.tls ? 'mqtts' : 'mqtt'}://${info.broker.host}:${info.broker.port}` : t('telemetry.gateway.noBroker');
  return (
    <Card
      size="small"
      title={t('telemetry.gateway.connectTitle')}
      style={{ marginBottom: 16 }}
      data-testid="gateway-connect"
      extra={
        mayGenerate && (
          <Popconfirm title={t(info.hasPassword ? 'telemetry.gateway.replaceConfirm' : 'telemetry.gateway.generateConfirm')} onConfirm={() => void generate()}>
            <Button size="small" icon={<KeyOutlined />} loading={busy} data-testid="gateway-generate">
              {t(info.hasPassword ? 'telemetry.gateway.newPassword' : 'telemetry.gateway.generate')}
            </Button>
          </Popconfirm>
        )
      }
    >
      {info.macMissing && <Alert type="warning" showIcon message={t('telemetry.gateway.macMissing')} style={{ marginBottom: 8 }} />}
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t('telemetry.gateway.broker')}>
          <Typography.Text copyable data-testid="gateway-broker">
            {broker}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('telemetry.gateway.username')}>
          {info.username ? (
            <Typography.Text copyable>{info.username}</Typography.Text>
          ) : (
            <Typography.Text type="secondary">{t('telemetry.gateway.noCredentials')}</Typography.Text>
          )}
          {info.username && !info.hasPassword && <Typography.Text type="warning"> {t('telemetry.gateway.noPassword')}</Typography.Text>}
        </Descriptions.Item>
        <Descriptions.Item label={t('telemetry.gateway.clientId')}>
          <Typography.Text copyable>{info.clientId}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('telemetry.gateway.publishes')}>
          <div data-testid="gateway-topics">
            {info.topics.publish.map((topic) => (
              <div key={topic}>
                <Typography.Text code copyable>
                  {topic}
                </Typography.Text>
              </div>
            ))}
          </div>
        </Descriptions.Item>
        <Descriptions.Item label={t('telemetry.gateway.subscribes')}>
          {info.topics.subscribe.map((topic) => (
            <div key={topic}>
              <Typography.Text code>{topic}</Typography.Text>
            </div>
          ))}
        </Descriptions.Item>
        {info.topics.lastWill && (
          <Descriptions.Item label={t('telemetry.gateway.lastWill')}>
            <Typography.Text code>{info.topics.lastWill.topic}</Typography.Text> <Typography.Text code>{info.topics.lastWill.payload}</Typography.Text>
          </Descriptions.Item>
        )}
        {info.command && (
          <Descriptions.Item label={t('telemetry.gateway.testCommand')}>
            <Typography.Paragraph
              code
              copyable={{ text: info.command }}
              style={{ marginBottom: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
              data-testid="gateway-command"
            >
              {info.command}
            </Typography.Paragraph>
          </Descriptions.Item>
        )}
      </Descriptions>
      {shown && <CredentialsModal credentials={shown} onClose={() => setShown(null)} />}
    </Card>
  );
};

export default GatewayConnect;
