/**
 * Lines added by key (metadata children `batch`; server `<line prefix>/batch/add`), on a
 * document's detail page while its lines may change: serials typed, scanned or pasted (one per
 * line, or separated by commas or spaces), the values every added line gets (a container
 * number, a remark), and every refused row listed with its key and reason, the refused keys
 * left in the box to fix and send again. With `batch.candidates` a "Pick" tab lists what the
 * lines may still take (the carriers standing in the order's warehouse on no open order), paged
 * by the server, ticks kept across pages. An adjustment, a count or a ship order takes its
 * carriers this way; the document's own rules decide, in one place on the server.
 */
import { useEffect, useMemo, useState, type FC } from 'react';
import { Alert, App, Button, Card, Input, Modal, Space, Table, Tabs, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { fieldLabelKey, resourceApiPrefix, type ChildrenDef, type FieldDef, type ResourceDef } from '@rti/metadata/browser';
import { request } from '../../providers/http-client';
import { useCan } from '../../components/guard/guarded';
import { useMetaT } from '../hooks/use-meta';
import { useMetadata } from '../../providers/metadata-context';
import { parseKeys } from '../lib/scan';
import { FieldInput } from './field-input';
import { renderFieldValue } from './field-renderer';

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

  const candidatesPath = `${resourceApiPrefix(lines)}/batch/candidates`;
  const canPick = useCan({ call: candidatesPath }) && Boolean(spec.candidates);
  const [tab, setTab] = useState<'keys' | 'pick'>('keys');
  const [picked, setPicked] = useState(0);

  /** typed keys (`spec.keys`) or picked ids (`spec.ids`); answers whether the call went through */
  const add = async (what: { keys: string[] } | { ids: number[] }): Promise<boolean> => {
    setBusy(true);
    try {
      const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null && v !== ''));
      const list = 'keys' in what ? { [spec.keys ?? 'keys']: what.keys } : { [spec.ids ?? 'ids']: what.ids };
      const a = await request<BatchAddAnswer>(path, { [def.foreignKey]: headerId, ...list, ...given });
      setAnswer(a);
      // only the refused keys stay in the box, to fix and send again
      if ('keys' in what) setText(a.failed.map((f) => f.sn).join('\n'));
      if (a.added) {
        void message.success(t('meta.batchAdded', { count: a.added }));
        onAdded();
        setPicked((n) => n + 1);
      }
      return true;
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const typed = (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('meta.batchAddHint')}</Typography.Text>
      <Input.TextArea autoFocus rows={5} value={text} onChange={(e) => setText(e.target.value)} placeholder={keyLabel} data-testid="batch-add-keys" />
      <Space wrap>
        <Typography.Text type="secondary">{t('meta.batchKeyCount', { count: keys.length })}</Typography.Text>
        <Button type="primary" loading={busy} disabled={!keys.length} onClick={() => void add({ keys })} data-testid="batch-add-submit">
          {t('meta.batchAdd')}
        </Button>
      </Space>
    </Space>
  );

  if (!can) return null;
  if (!open)
    return (
      <Button size="small" icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="batch-add-open">
        {t('meta.batchAddBy', { field: keyLabel })}
      </Button>
    );
  return (
    <Card
      size="small"
      type="inner"
      title={t('meta.batchAddBy', { field: keyLabel })}
      extra={<Button onClick={() => setOpen(false)}>{t('meta.close')}</Button>}
      style={{ marginBottom: 12 }}
      data-testid="batch-add"
    >
      <Space direction="vertical" style={{ width: '100%' }}>
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
        {canPick ? (
          <Tabs
            activeKey={tab}
            onChange={(k) => setTab(k as 'keys' | 'pick')}
            items={[
              { key: 'keys', label: <span data-testid="batch-add-tab-keys">{t('meta.batchTyped', { field: keyLabel })}</span>, children: typed },
              {
                key: 'pick',
                label: <span data-testid="batch-add-tab-pick">{t('meta.batchPick')}</span>,
                children: (
                  <CandidatePicker def={def} lines={lines} headerId={headerId} keyLabel={keyLabel} busy={busy} reload={picked} onAdd={(ids) => add({ ids })} />
                ),
              },
            ]}
          />
        ) : (
          typed
        )}
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

/** SPEC §9: a picker shows 20 rows a page */
const PICK_PAGE = 20;

/** What the lines may still take (`<line prefix>/batch/candidates`), paged by the server; the ticks survive paging. */
const CandidatePicker: FC<{
  def: ChildrenDef;
  lines: ResourceDef;
  headerId: unknown;
  keyLabel: string;
  busy: boolean;
  /** changes after lines were added: the candidates are read again */
  reload: number;
  onAdd: (ids: number[]) => Promise<boolean>;
}> = ({ def, lines, headerId, keyLabel, busy, reload, onAdd }) => {
  const { t } = useMetaT();
  const { resources, enums } = useMetadata();
  const spec = def.batch!;
  const target = resources[lines.fields.find((f) => f.name === spec.by.field)?.ref?.resource ?? ''];
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [data, setData] = useState<{ list: Array<Record<string, unknown>>; total: number }>({ list: [], total: 0 });
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  const [selected, setSelected] = useState<number[]>([]);
  useEffect(() => {
    let live = true;
    setLoading(true);
    request<{ list: Array<Record<string, unknown>>; total: number }>(`${resourceApiPrefix(lines)}/batch/candidates`, {
      [def.foreignKey]: headerId,
      page,
      limit: PICK_PAGE,
      ...(search ? { [spec.by.key]: search } : {}),
    })
      .then((d) => live && (setData(d), setError(undefined)))
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [lines, def.foreignKey, headerId, spec.by.key, page, search, reload]);
  const columns = [spec.by.key, ...(spec.candidates?.columns ?? [])]
    .map((n) => target?.fields.find((f) => f.name === n))
    .filter((f): f is FieldDef => Boolean(f))
    .map((f) => ({ key: f.name, title: t(fieldLabelKey(f)), render: (_: unknown, r: Record<string, unknown>) => renderFieldValue(f, r, 'table', t, enums) }));
  const submit = async () => {
    if (!(await onAdd(selected))) return;
    // added ones leave the list (they are on this document now)
    setSelected([]);
    setPage(1);
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Input.Search
        allowClear
        style={{ maxWidth: 260 }}
        placeholder={keyLabel}
        onSearch={(v) => {
          setPage(1);
          setSearch(v.trim());
        }}
        data-testid="batch-pick-search"
      />
      {error && <Alert type="error" showIcon message={error} />}
      <div data-testid="batch-pick-table">
        <Table
          size="small"
          rowKey={(r) => Number(r.id)}
          loading={loading}
          dataSource={data.list}
          scroll={{ x: 'max-content' }}
          columns={columns}
          rowSelection={{ selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: (keys) => setSelected(keys.map(Number)) }}
          pagination={{ current: page, pageSize: PICK_PAGE, total: data.total, size: 'small', showSizeChanger: false, onChange: setPage }}
        />
      </div>
      <Space wrap>
        <Typography.Text type="secondary" data-testid="batch-pick-selected">
          {t('meta.batchPickSelected', { count: selected.length })}
        </Typography.Text>
        <Button type="primary" loading={busy} disabled={!selected.length} onClick={() => void submit()} data-testid="batch-pick-submit">
          {t('meta.batchAdd')}
        </Button>
      </Space>
    </Space>
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
