import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useInvalidate } from '@refinedev/core';
import { App, Input, Space } from 'antd';
import type { BaseKey } from '@refinedev/core';
import { request } from '@rti/console/plugin-api';
import type { AlertKind } from './alert-kinds';
import { alertFeed } from './alert-feed';

/**
 * "Process" of one alert, shared by the detail banner and the list's row action: a
 * confirmation naming the device with an optional remark, the SPEC /process call, then the
 * list, the detail and the bell refresh (the live stream tells other users' screens).
 */
export function useProcessAlert(kind: AlertKind | undefined, resource: string, onDone?: () => void) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const invalidate = useInvalidate();
  const [busy, setBusy] = useState(false);

  const process = (id: BaseKey, sn: string) => {
    if (!kind) return;
    let remark = '';
    modal.confirm({
      title: t('monitor.processTitle'),
      content: (
        <Space direction="vertical" style={{ width: '100%' }}>
          <span>{t('monitor.processConfirm', { sn })}</span>
          <Input.TextArea
            maxLength={200}
            showCount
            rows={3}
            placeholder={t('monitor.remark')}
            onChange={(e) => (remark = e.target.value)}
            data-testid="alert-process-remark"
          />
        </Space>
      ),
      okText: t('monitor.process'),
      okButtonProps: { 'data-testid': 'alert-process-confirm' } as never,
      onOk: async () => {
        setBusy(true);
        try {
          await request(`${kind.api}/process`, { id, ...(remark.trim() ? { remark: remark.trim() } : {}) });
          void message.success(t('monitor.processed'));
          await invalidate({ resource, invalidates: ['list', 'detail'], id });
          onDone?.();
          void alertFeed.refresh().catch(() => undefined);
        } finally {
          setBusy(false);
        }
      },
    });
  };
  return { process, busy };
}
