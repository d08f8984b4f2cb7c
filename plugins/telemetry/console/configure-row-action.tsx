import type { FC } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import { GpsConfigStatusEnum } from '@rti/metadata/browser';
import type { RowActionProps } from '@rti/console/plugin-api';
import { useConfigure } from './use-configure';

/** "Send config" on a tracker never sent (pending), "Resend" otherwise (configuring, effective, error). */
const ConfigureRowAction: FC<RowActionProps> = ({ record, onChanged }) => {
  const { t } = useTranslation();
  const { configure, busy } = useConfigure(onChanged);
  if (record.id === undefined) return null;
  const first = Number(record.configStatus) === GpsConfigStatusEnum.pending;
  return (
    <Button type="link" size="small" icon={<SendOutlined />} loading={busy} data-testid="gps-configure" onClick={() => void configure([Number(record.id)])}>
      {first ? t('telemetry.gpsConfig.send') : t('telemetry.gpsConfig.resend')}
    </Button>
  );
};

export default ConfigureRowAction;
