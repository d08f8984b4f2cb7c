/**
 * The panel of "Add carriers" (SPEC §2 `/ship-order-manage/ship-order/add-carrier?id=`, a declared
 * record page opened from a new ship order's detail page): by picking carriers standing in the shipper warehouse (selection
 * kept across pages), or through the generic shipping-list import. Serials typed or scanned are
 * the generated detail page's "Add by serial" (children `batch`). Every way ends in the server's
 * line rules; refused rows are listed with their SPEC §8 reason, and the lines and totals reload.
 */
import { useCallback, useEffect, useMemo, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useInvalidate } from '@refinedev/core';
import { Alert, App, Button, Input, Space, Table, Tabs, Typography } from 'antd';
import { ImportOutlined } from '@ant-design/icons';
import { loadImportDialog, request, useMetadata, type BatchAddAnswer, type RecordPanelProps } from '@rti/console/plugin-api';

type Row = Record<string, unknown>;
/** SPEC §9: a picker shows 20 rows a page */
const PAGE_SIZE = 20;

/** The warehouse picker and the import, for one new order. */
export default function AddCarriersPanel({ record, refresh: reread }: RecordPanelProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const invalidate = useInvalidate();
  const { resources } = useMetadata();
  const shipOrderId = Number(record.id);
  const [tab, setTab] = useState('picker');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<BatchAddAnswer>();
  const [containerNo, setContainerNo] = useState('');
  const [ImportDialog, setImportDialog] = useState<ComponentType<{ resource: never; onClose: () => void; onFinished?: () => void }>>();

  const refresh = useCallback(() => {
    // the order's lines and total: the detail page shows them fresh when the user goes back
    void invalidate({ resource: 'ship-order-detail', invalidates: ['list'] });
    void invalidate({ resource: 'ship-order', invalidates: ['list', 'detail'], id: shipOrderId });
    reread();
  }, [invalidate, reread, shipOrderId]);

  const add = async (body: { sns?: string[]; carrierIds?: number[] }): Promise<BatchAddAnswer | undefined> => {
    setBusy(true);
    try {
      const a = await request<BatchAddAnswer>('/ship-order-detail/batch/add', {
        shipOrderId,
        ...body,
        ...(containerNo.trim() ? { containerNo: containerNo.trim() } : {}),
      });
      setAnswer(a);
      if (a.added) {
        void message.success(t('shipping.added', { count: a.added }));
        refresh();
      }
      return a;
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
      return undefined;
    } finally {
      setBusy(false);
    }
  };

  const openImport = async () => {
    const C = await loadImportDialog();
    setImportDialog(() => C as never);
  };

  const container = (
    <Input
      style={{ maxWidth: 260 }}
      placeholder={t('shipping.containerNo')}
      value={containerNo}
      maxLength={50}
      onChange={(e) => setContainerNo(e.target.value)}
      data-testid="ship-add-container"
    />
  );

  return (
    <div data-testid="ship-add-dialog">
      {/* the container the picked carriers are packed in */}
      {tab !== 'import' && container}
      <Tabs
        activeKey={tab}
        onChange={(k) => {
          setTab(k);
          setAnswer(undefined);
        }}
        items={[
          {
            key: 'picker',
            label: <span data-testid="ship-add-tab-picker">{t('shipping.byPicker')}</span>,
            children: <Picker record={record} busy={busy} onAdd={(ids) => add({ carrierIds: ids })} />,
          },
          {
            key: 'import',
            label: <span data-testid="ship-add-tab-import">{t('shipping.byImport')}</span>,
            children: (
              <Space direction="vertical">
                <Typography.Text type="secondary">{t('shipping.importHint')}</Typography.Text>
                <Button icon={<ImportOutlined />} onClick={() => void openImport()} disabled={!resources['ship-order-detail']} data-testid="ship-add-import">
                  {t('shipping.openImport')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {answer && answer.failed.length > 0 && <Refused answer={answer} />}
      {ImportDialog && resources['ship-order-detail'] && (
        <ImportDialog resource={resources['ship-order-detail'] as never} onClose={() => setImportDialog(undefined)} onFinished={refresh} />
      )}
    </div>
  );
}

function Refused({ answer }: { answer: BatchAddAnswer }) {
  const { t } = useTranslation();
  return (
    <div style={{ marginTop: 16 }} data-testid="ship-add-refused">
      <Alert type="warning" showIcon message={t('shipping.refusedTitle', { count: answer.failed.length })} style={{ marginBottom: 8 }} />
      <Table
        size="small"
        rowKey={(r) => `${r.row}:${r.sn}`}
        pagination={answer.failed.length > 10 ? { pageSize: 10, size: 'small' } : false}
        dataSource={answer.failed}
        columns={[
          { key: 'row', dataIndex: 'row', title: t('shipping.row'), width: 70 },
          { key: 'sn', dataIndex: 'sn', title: t('shipping.serial'), width: 180 },
          { key: 'message', dataIndex: 'message', title: t('shipping.reason') },
        ]}
      />
    </div>
  );
}

/** Carriers in the shipper warehouse on no open order, paged by the server; the selection survives paging. */
function Picker({ record, busy, onAdd }: { record: Row; busy: boolean; onAdd: (ids: number[]) => Promise<BatchAddAnswer | undefined> }) {
  const { t } = useTranslation();
  const shipOrderId = Number(record.id);
  const [page, setPage] = useState(1);
  const [sn, setSn] = useState('');
  const [data, setData] = useState<{ list: Row[]; total: number }>({ list: [], total: 0 });
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  const [selected, setSelected] = useState<number[]>([]);
  const [seq, setSeq] = useState(0);

  useEffect(() => {
    let live = true;
    setLoading(true);
    request<{ list: Row[]; total: number }>('/ship-order/all/carrier', { shipOrderId, page, limit: PAGE_SIZE, ...(sn ? { sn } : {}) })
      .then((d) => live && (setData(d), setError(undefined)))
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [shipOrderId, page, sn, seq]);

  const submit = async () => {
    const a = await onAdd(selected);
    if (!a) return;
    setSelected([]);
    // added carriers leave the picker (they are on this open order now)
    setPage(1);
    setSeq((s) => s + 1);
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary">
        {t('shipping.pickerHint', { warehouse: String(record.shipperWarehouseIdLabel ?? record.shipperWarehouseId ?? '') })}
      </Typography.Text>
      <Input.Search
        allowClear
        style={{ maxWidth: 260 }}
        placeholder={t('shipping.pickerSearch')}
        onSearch={(v) => {
          setPage(1);
          setSn(v.trim());
        }}
        data-testid="ship-picker-search"
      />
      {error && <Alert type="error" showIcon message={error} />}
      <div data-testid="ship-picker-table">
        <Table
          size="small"
          rowKey={(r) => Number(r.id)}
          loading={loading}
          dataSource={data.list}
          scroll={{ x: 480 }}
          rowSelection={{ selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: (keys) => setSelected(keys.map(Number)) }}
          pagination={{ current: page, pageSize: PAGE_SIZE, total: data.total, size: 'small', showSizeChanger: false, onChange: setPage }}
          columns={[
            { key: 'sn', dataIndex: 'sn', title: t('shipping.serial'), width: 180 },
            { key: 'name', dataIndex: 'name', title: t('fields.name') },
            { key: 'carrierCode', title: t('fields.carrierCode'), render: (_: unknown, r: Row) => String(r.carrierCodeIdLabel ?? r.carrierCodeId ?? '') },
          ]}
        />
      </div>
      <Space wrap>
        <Typography.Text type="secondary" data-testid="ship-picker-selected">
          {t('shipping.selectedCount', { count: selected.length })}
        </Typography.Text>
        {selected.length > 0 && (
          <Button size="small" onClick={() => setSelected([])}>
            {t('shipping.clearSelection')}
          </Button>
        )}
        <Button type="primary" loading={busy} disabled={!selected.length} onClick={() => void submit()} data-testid="ship-picker-submit">
          {t('shipping.addSelected', { count: selected.length })}
        </Button>
      </Space>
    </Space>
  );
}
