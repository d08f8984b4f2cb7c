/**
 * "Print" on the detail page of a resource declaring `print`: the document's PDF (server
 * resources/print.ts) for the whole document, one page run per group or one group (a
 * container), when the lines are grouped. Offered to users who may call `<prefix>/print`.
 */
import { PrinterOutlined } from '@ant-design/icons';
import { App, Button, Input, Modal, Radio, Space } from 'antd';
import { useState, type FC } from 'react';
import { apiCode, fieldLabelKey, resourceApiPrefix, type ResourceDef } from '@rti/metadata/browser';
import { request } from '../../providers/http-client';
import { useOptionalShell } from '../../providers/shell-context';
import { useMetadata, useMetaT } from '../hooks/use-meta';
import { downloadBlob } from '../lib/download';

type Mode = 'whole' | 'each' | 'one';

export const PrintButton: FC<{ resource: ResourceDef; id: string | number; title: string }> = ({ resource, id, title }) => {
  const { t } = useMetaT();
  const meta = useMetadata();
  const { message } = App.useApp();
  const access = useOptionalShell()?.access;
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<Mode>('whole');
  const [group, setGroup] = useState('');
  const [busy, setBusy] = useState(false);
  const path = `${resourceApiPrefix(resource)}/print`;
  if (!resource.print || !access?.has(apiCode(path))) return null;
  const { lines } = resource.print;
  const lineRes = meta.resources[lines.resource ?? resource.children?.[0]?.resource ?? ''];
  const groupField = lines.groupBy ? lineRes?.fields.find((f) => f.name === lines.groupBy) : undefined;
  const groupLabel = lines.groupBy ? t(fieldLabelKey(groupField ?? { name: lines.groupBy })) : '';

  const print = async () => {
    const one = mode === 'one' ? group.trim() : '';
    if (mode === 'one' && !one) {
      void message.warning(t('meta.print.groupRequired', { group: groupLabel }));
      return;
    }
    setBusy(true);
    try {
      const body = {
        id: Number(id),
        ...(one && lines.groupBy ? { [lines.groupBy]: one } : {}),
        ...(mode === 'each' && lines.perGroup ? { [lines.perGroup]: true } : {}),
      };
      downloadBlob(await request<Blob>(path, body, { blob: true }), `${title}${one ? `-${one}` : ''}.pdf`);
      setOpen(false);
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button icon={<PrinterOutlined />} onClick={() => setOpen(true)} data-testid="meta-print">
        {t('meta.print.button')}
      </Button>
      <Modal
        open={open}
        title={t('meta.print.title', { name: title })}
        onCancel={() => setOpen(false)}
        onOk={() => void print() /* print() reports its own failure */}
        okText={t('meta.print.download')}
        okButtonProps={{ 'data-testid': 'meta-print-ok' } as never}
        confirmLoading={busy}
        destroyOnHidden
      >
        {lines.groupBy ? (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
              <Space direction="vertical">
                <Radio value="whole">{t('meta.print.whole')}</Radio>
                {lines.perGroup && <Radio value="each">{t('meta.print.each', { group: groupLabel })}</Radio>}
                <Radio value="one">{t('meta.print.one', { group: groupLabel })}</Radio>
              </Space>
            </Radio.Group>
            {mode === 'one' && (
              <Input maxLength={200} value={group} onChange={(e) => setGroup(e.target.value)} placeholder={groupLabel} data-testid="meta-print-group" />
            )}
          </Space>
        ) : (
          t('meta.print.whole')
        )}
      </Modal>
    </>
  );
};
