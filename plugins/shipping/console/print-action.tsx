/**
 * "Print" on a ship order's detail page: the delivery note / packing manifest PDF (server
 * /ship-order/print, with the QR code of the public page) for the whole order, one container
 * or one manifest per container. The public page's link and QR code on screen are the
 * platform's "Public link" beside it (ship-order.json `publicLink`).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Button, Input, Modal, Radio, Space, Typography } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { downloadBlob, request, type RowActionProps } from '@rti/console/plugin-api';

type Mode = 'order' | 'container' | 'perContainer';

export default function PrintAction({ record }: RowActionProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<Mode>('order');
  const [containerNo, setContainerNo] = useState('');
  const [busy, setBusy] = useState(false);
  if (record.id == null) return null;
  const id = Number(record.id);

  const print = async () => {
    if (mode === 'container' && !containerNo.trim()) {
      void message.warning(t('shipping.print.containerRequired'));
      return;
    }
    setBusy(true);
    try {
      const body = {
        id,
        utcOffset: -new Date().getTimezoneOffset(),
        ...(mode === 'container' ? { containerNo: containerNo.trim() } : {}),
        ...(mode === 'perContainer' ? { perContainer: true } : {}),
      };
      const blob = await request<Blob>('/ship-order/print', body, { blob: true });
      downloadBlob(blob, `${String(record.orderNo)}${mode === 'container' ? `-${containerNo.trim()}` : ''}.pdf`);
      setOpen(false);
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button icon={<PrinterOutlined />} onClick={() => setOpen(true)} data-testid="ship-print">
        {t('shipping.print.button')}
      </Button>
      <Modal
        open={open}
        title={t('shipping.print.dialogTitle', { orderNo: String(record.orderNo) })}
        onCancel={() => setOpen(false)}
        onOk={() => void print() /* print() reports its own failure */}
        okText={t('shipping.print.download')}
        confirmLoading={busy}
        destroyOnHidden
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
            <Space direction="vertical">
              <Radio value="order">{t('shipping.print.wholeOrder')}</Radio>
              <Radio value="perContainer">{t('shipping.print.perContainer')}</Radio>
              <Radio value="container">{t('shipping.print.oneContainer')}</Radio>
            </Space>
          </Radio.Group>
          {mode === 'container' && (
            <Input maxLength={50} value={containerNo} onChange={(e) => setContainerNo(e.target.value)} placeholder={t('shipping.print.containerPlaceholder')} />
          )}
          <Typography.Text type="secondary">{t('shipping.print.qrHint')}</Typography.Text>
        </Space>
      </Modal>
    </>
  );
}
