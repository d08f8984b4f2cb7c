/**
 * "Receive selected" above a receipt's lines (zone `receipt.lines.toolbar`): the ticked lines are
 * received in one `/receipt-detail/receive { ids }` call (a new receipt starts receiving). A
 * refusal names the serials and why, in the user's language, and stays shown until the next try.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, App, Button } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { request, type LinesZoneProps } from '@rti/console/plugin-api';
import { receiptOpen, receivedCount } from './receiving';

export default function ReceiveSelected({ record, lines, selectedIds, clearSelection, refresh }: LinesZoneProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  if (lines.name !== 'receipt-detail' || !receiptOpen(record)) return null;

  const receive = async () => {
    const ids = selectedIds.map(Number);
    setBusy(true);
    setError(undefined);
    try {
      const answer = await request<unknown>('/receipt-detail/receive', { ids });
      void message.success(t('receiving.receivedSelected', { count: receivedCount(answer, ids.length) }));
      clearSelection();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
      refresh();
    }
  };

  return (
    <>
      <Button
        type="primary"
        icon={<CheckOutlined />}
        loading={busy}
        disabled={!selectedIds.length}
        onClick={() => void receive()}
        data-testid="receiving-receive-selected"
      >
        {t('receiving.receiveSelected', { count: selectedIds.length })}
      </Button>
      {error && <Alert type="error" showIcon closable message={error} onClose={() => setError(undefined)} data-testid="receiving-receive-error" />}
    </>
  );
}
