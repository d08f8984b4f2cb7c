/**
 * "Refresh from carriers" above the carrier asset list (zone `carrier-asset.list.toolbar`):
 * `/carrier-asset/refresh` makes the missing asset rows from the carriers of asset-managed
 * carrier codes and follows changed serials; the button shows it is working until the server
 * answers (a million carriers take a while), then what was made and updated.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, App, Button } from 'antd';
import { SyncOutlined } from '@ant-design/icons';
import { request, type ListZoneProps } from '@rti/console/plugin-api';

interface Answer {
  carriers: number;
  created: number;
  updated: number;
}

export default function RefreshAssets({ refresh }: ListZoneProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const run = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const a = await request<Answer>('/carrier-asset/refresh', {});
      void message.success(t('maintenance.refresh.done', a as unknown as Record<string, number>));
      refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button icon={<SyncOutlined spin={busy} />} loading={busy} onClick={() => void run()} data-testid="maintenance-refresh-assets">
        {busy ? t('maintenance.refresh.running') : t('maintenance.refresh.button')}
      </Button>
      {error && <Alert type="error" showIcon closable message={error} onClose={() => setError(undefined)} />}
    </>
  );
}
