import { App, Button, Popconfirm } from 'antd';
import { KeyOutlined } from '@ant-design/icons';
import { useState, type FC } from 'react';
import { useTranslation } from 'react-i18next';
import { request, type ListZoneProps } from '@rti/console/plugin-api';
import { CredentialsModal, type GeneratedCredential } from './gateway-credentials-modal';

/**
 * Above a gateway list: "Generate MQTT passwords" for every gateway that has none yet (what an
 * import leaves), shown once.
 */
const GatewayCredentialsToolbar: FC<ListZoneProps> = ({ resource, refresh }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<GeneratedCredential[] | null>(null);
  const generate = async () => {
    setBusy(true);
    try {
      const answer = await request<{ gateways: GeneratedCredential[] }>(`/${resource.name}/mqtt-credentials`, { missing: true });
      setShown(answer.gateways);
      refresh();
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Popconfirm
        title={t('telemetry.gateway.generateMissingConfirm')}
        onConfirm={() => void generate()}
        okButtonProps={{ 'data-testid': 'gateway-generate-missing-ok' } as never}
      >
        <Button icon={<KeyOutlined />} loading={busy} data-testid="gateway-generate-missing">
          {t('telemetry.gateway.generateMissing')}
        </Button>
      </Popconfirm>
      {shown && <CredentialsModal credentials={shown} onClose={() => setShown(null)} />}
    </>
  );
};

export default GatewayCredentialsToolbar;
