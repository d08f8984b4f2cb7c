/**
 * Lines added by key (metadata children `batch`; server `<line prefix>/batch/add`), on a
 * document's detail page while its lines may change: serials typed, scanned or pasted (one per
 * line, or separated by commas or spaces), the values every added line gets (a container
 * number, a remark), and every refused row listed with its key and reason, the refused keys
 * left in the box to fix and send again. An adjustment, a count or a ship order takes its
 * carriers this way; the document's own rules decide, in one place on the server.
 */
import { useMemo, useState, type FC } from 'react';
import { Alert, App, Button, Card, Input, Modal, Space, Table, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { fieldLabelKey, resourceApiPrefix, type ChildrenDef, type FieldDef, type ResourceDef } from '@rti/metadata/browser';
import { request } from '../../providers/http-client';
import { useCan } from '../../components/guard/guarded';
import { useMetaT } from '../hooks/use-meta';
import { useMetadata } from '../../providers/metadata-context';
import { parseKeys } from '../lib/scan';
import { FieldInput } from './field-input';

import type { BatchAddAnswer } from '../../plugin-contract';
export type { BatchAddAnswer };

export const batchAddPath = (lines: Pick<ResourceDef, 'name' | 'apiPath'>): string => `${resourceApiPrefix(lines)}/batch/add`;

/** The target's key field (a carrier's serial) the keys are matched against. */
export function batchKeyField(def: ChildrenDef, lines: ResourceDef, resources: Record<string, ResourceDef>): FieldDef | undefined {
  const by = def.batch?.by;
  const ref = by && lines.fields.find((f) => f.name === by.field)?.ref?.resource;
  return ref ? resources[ref]?.fields.find((f) => f.name === by.key) : undefined;
}

export const BatchAdd: FC<{ def: ChildrenDef; lines: ResourceDef; headerId: unknown; onAdded: () => void }> = ({ def, lines, headerId, onAdded }) => {
  const { t } = useMetaT();
  const { message } = App.useApp();
  const { resources } = useMetadata();
  const path = batchAddPath(lines);
  const can = useCan({ call: path });
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<BatchAddAnswer>();
  const keys = useMemo(() => parseKeys(text), [text]);
  const spec = def.batch!;
  const keyField = batchKeyField(def, lines, resources);
  const keyLabel = t(keyField ? fieldLabelKey(keyField) : spec.by.key);
  const valueFields = (spec.values ?? []).map((n) => lines.fields.find((f) => f.name === n)).filter((f): f is FieldDef => Boolean(f));
  if (!can) return null;

  const add = async () => {
    setBusy(true);
    try {
      const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null && v !== ''));
      const a = await request<BatchAddAnswer>(path, { [def.foreignKey]: headerId, [spec.keys ?? 'keys']: keys, ...given });
      setAnswer(a);
      // only the refused keys stay in the box, to fix and send again
      setText(a.failed.map((f) => f.sn).join('\n'));
      if (a.added) {
        void message.success(t('meta.batchAdded', { count: a.added }));
        onAdded();
      }
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  if (!open)
    return (
      <Button size="small" icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="batch-add-open">
        {t('meta.batchAddBy', { field: keyLabel })}
      </Button>
    );
  return (
    <Card size="small" type="inner" title={t('meta.batchAddBy', { field: keyLabel })} style={{ marginBottom: 12 }} data-testid="batch-add">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('meta.batchAddHint')}</Typography.Text>
        <Input.TextArea autoFocus rows={5} value={text} onChange={(e) => setText(e.target.value)} placeholder={keyLabel} data-testid="batch-add-keys" />
        {valueFields.length > 0 && (
          <Space wrap>
            {valueFields.map((f) => (
              <div key={f.name} style={{ minWidth: 200 }} data-testid={`batch-add-value-${f.name}`}>
                <Typography.Text type="secondary">{t(fieldLabelKey(f))}</Typography.Text>
                <FieldInput field={f} resource={lines.name} value={values[f.name]} onChange={(v) => setValues((s) => ({ ...s, [f.name]: v }))} />
              </div>
            ))}
          </Space>
        )}
        <Space wrap>
          <Typography.Text type="secondary">{t('meta.batchKeyCount', { count: keys.length })}</Typography.Text>
          <Button type="primary" loading={busy} disabled={!keys.length} onClick={() => void add()} data-testid="batch-add-submit">
            {t('meta.batchAdd')}
          </Button>
          <Button onClick={() => setOpen(false)}>{t('meta.close')}</Button>
        </Space>
        {answer && answer.failed.length > 0 && (
          <div data-testid="batch-add-refused">
            <Alert type="warning" showIcon message={t('meta.scanRefusedTitle', { count: answer.failed.length })} style={{ marginBottom: 8 }} />
            <Table
              size="small"
              rowKey={(r) => `${r.row}:${r.sn}`}
              pagination={answer.failed.length > 10 ? { pageSize: 10, size: 'small' } : false}
              dataSource={answer.failed}
              columns={[
                { key: 'row', dataIndex: 'row', title: t('meta.row'), width: 70 },
                { key: 'sn', dataIndex: 'sn', title: keyLabel, width: 180 },
                { key: 'message', dataIndex: 'message', title: t('meta.reason') },
              ]}
            />
          </div>
        )}
      </Space>
    </Card>
  );
};

/**
 * The declared `batch.values` set on the ticked lines in one call (`<line prefix>/batch/update`,
 * all or none through the document's rules): a container number, a remark, a count result.
 */
export const BatchSet: FC<{ def: ChildrenDef; lines: ResourceDef; selectedIds: Array<number | string>; clearSelection: () => void; refresh: () => void }> = ({
  def,
  lines,
  selectedIds,
  clearSelection,
  refresh,
}) => {
  const { t } = useMetaT();
  const { message } = App.useApp();
  const path = `${resourceApiPrefix(lines)}/batch/update`;
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const fields = (def.batch?.values ?? []).map((n) => lines.fields.find((f) => f.name === n)).filter((f): f is FieldDef => Boolean(f));
  const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null && v !== ''));

  const apply = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const a = await request<{ updated: number }>(path, { ids: selectedIds.map(Number), ...given });
      void message.success(t('meta.batchUpdated', { count: a.updated }));
      setOpen(false);
      setValues({});
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
      <Button disabled={!selectedIds.length} onClick={() => setOpen(true)} data-testid="batch-set-open">
        {t('meta.batchSetSelected', { count: selectedIds.length })}
      </Button>
      <Modal
        open={open}
        title={t('meta.batchSetSelected', { count: selectedIds.length })}
        onCancel={() => setOpen(false)}
        onOk={() => void apply()}
        okText={t('meta.save')}
        cancelText={t('meta.cancel')}
        okButtonProps={{ loading: busy, disabled: !Object.keys(given).length, 'data-testid': 'batch-set-ok' } as never}
        destroyOnHidden
      >
        <Space direction="vertical" style={{ width: '100%' }} data-testid="batch-set">
          {fields.map((f) => (
            <div key={f.name} data-testid={`batch-set-value-${f.name}`}>
              <Typography.Text type="secondary">{t(fieldLabelKey(f))}</Typography.Text>
              <FieldInput field={f} resource={lines.name} value={values[f.name]} onChange={(v) => setValues((s) => ({ ...s, [f.name]: v }))} />
            </div>
          ))}
          {error && <Alert type="error" showIcon message={error} data-testid="batch-set-error" />}
        </Space>
      </Modal>
    </>
  );
};
