import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App } from 'antd';
import { request } from '@rti/console/plugin-api';

/** one call sends at most this many trackers (the server's bound) */
export const CONFIGURE_MAX = 500;

interface Answer {
  sent: number;
  devices: Array<{ id: number; sn: string; sent: boolean }>;
}

/** Sends the configuration of trackers (in calls of at most CONFIGURE_MAX) and says how it went. */
export function useConfigure(onChanged: () => void): { configure: (ids: number[]) => Promise<void>; busy: boolean } {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const configure = async (ids: number[]): Promise<void> => {
    if (!ids.length) {
      void message.info(t('telemetry.gpsConfig.nothing'));
      return;
    }
    setBusy(true);
    try {
      let sent = 0;
      for (let i = 0; i < ids.length; i += CONFIGURE_MAX)
        sent += (await request<Answer>('/device-gps/configure', { ids: ids.slice(i, i + CONFIGURE_MAX) })).sent;
      if (sent === ids.length) void message.success(t('telemetry.gpsConfig.sent', { count: sent }));
      else void message.warning(t('telemetry.gpsConfig.partlySent', { sent, count: ids.length }));
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
      onChanged();
    }
  };
  return { configure, busy };
}
