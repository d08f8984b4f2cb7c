import { useEffect, useRef, type FC } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Popconfirm } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import { GpsConfigStatusEnum } from '@rti/metadata/browser';
import { request, type ListZoneProps } from '@rti/console/plugin-api';
import { openLiveStream } from '@rti/console/live-stream';
import { useConfigure } from './use-configure';

const DEBOUNCE_MS = 500;
/** the trackers a batch send takes: never sent since their last change, or failed */
const TO_SEND = [GpsConfigStatusEnum.pending, GpsConfigStatusEnum.notEffective];

/**
 * Above the GPS device list: "Send config to pending and failed trackers" (every such tracker
 * of the organisation, after a confirmation), and the list reloading as trackers answer (the
 * live event stream's GPS configuration events).
 */
const ConfigureToolbar: FC<ListZoneProps> = ({ refresh }) => {
  const { t } = useTranslation();
  const { configure, busy } = useConfigure(refresh);
  const latest = useRef(refresh);
  latest.current = refresh;

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = openLiveStream((e) => {
      if (e.type !== 'gps-config') return;
      clearTimeout(timer);
      timer = setTimeout(() => latest.current(), DEBOUNCE_MS);
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, []);

  const sendAll = async (): Promise<void> => {
    const rows = await request<Array<{ id: number }>>('/device-gps/all', { configStatus: TO_SEND });
    await configure((rows ?? []).map((r) => r.id));
  };

  return (
    <Popconfirm
      title={t('telemetry.gpsConfig.sendAllConfirm')}
      onConfirm={() => void sendAll()}
      okButtonProps={{ 'data-testid': 'gps-configure-all-ok' } as never}
    >
      <Button icon={<SendOutlined />} loading={busy} data-testid="gps-configure-all">
        {t('telemetry.gpsConfig.sendAll')}
      </Button>
    </Popconfirm>
  );
};

export default ConfigureToolbar;
