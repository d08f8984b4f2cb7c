/**
 * "Containerize" (SPEC §2 `/ship-order-manage/ship-order/containerize?id=`), opened from a new
 * ship order's detail page: choose lines (all pages of the order's
 * shipping list) and the container they are packed in; `/ship-order-detail/batch/update`
 * applies the document's line rules to each. The containers so far are listed with counts.
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useInvalidate } from '@refinedev/core';
import { useNavigate } from 'react-router';
import { App, Button, Input, Space, Table, Tag, Typography } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { ShipOrderStatusEnum } from '@rti/metadata/browser';
import { request, type RowActionProps } from '@rti/console/plugin-api';
import { CONTAINERIZE_PATH } from './order-page';

type Row = Record<string, unknown>;

/** Lines can be packed while the order is new and has lines. */
export const canContainerize = (record: Row): boolean => record.status === ShipOrderStatusEnum.new && record.id != null && !!Number(record.totalAmount);

/** The detail page's button: opens the Containerize screen of this order (SPEC §2 route). */
export default function Containerize({ record }: RowActionProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (!canContainerize(record)) return null;
  return (
    <Button icon={<InboxOutlined />} onClick={() => void navigate(`${CONTAINERIZE_PATH}?id=${String(record.id)}`)} data-testid="ship-containerize">
      {t('shipping.containerize')}
    </Button>
  );
}

/** Choose lines of one new order and the container they go in; the containers so far with counts. */
export function ContainerizePanel({ record, onChanged }: { record: Row; onChanged: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const invalidate = useInvalidate();
  const shipOrderId = Number(record.id);
  const [lines, setLines] = useState<Row[]>([]);
  const [loading, setLoading] = useState(true);
  const [selected, setSelected] = useState<number[]>([]);
  const [containerNo, setContainerNo] = useState('');
  const [busy, setBusy] = useState(false);
  const [seq, setSeq] = useState(0);

  useEffect(() => {
    let live = true;
    setLoading(true);
    request<Row[]>('/ship-order-detail/getcarriers', { shipOrderId })
      .then((rows) => live && setLines(rows))
      .catch((e: unknown) => live && void message.error(e instanceof Error ? e.message : String(e)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [shipOrderId, seq, message]);

  const containers = useMemo(() => {
    const by = new Map<string, number>();
    for (const l of lines) by.set(String(l.containerNo ?? ''), (by.get(String(l.containerNo ?? '')) ?? 0) + 1);
    return [...by.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [lines]);

  const submit = async () => {
    const no = containerNo.trim();
    if (!no) return void message.warning(t('shipping.containerRequired'));
    if (!selected.length) return void message.warning(t('shipping.linesRequired'));
    setBusy(true);
    try {
      const a = await request<{ updated: number }>('/ship-order-detail/batch/update', { ids: selected, containerNo: no });
      void message.success(t('shipping.containerized', { count: a.updated, containerNo: no }));
      setSelected([]);
      setSeq((s) => s + 1);
      void invalidate({ resource: 'ship-order-detail', invalidates: ['list'] });
      void invalidate({ resource: 'ship-order', invalidates: ['detail'], id: shipOrderId });
      onChanged();
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div data-testid="ship-containerize-dialog">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('shipping.containerizeHint')}</Typography.Text>
        <div>
          <Typography.Text strong>{t('shipping.containers')}: </Typography.Text>
          {containers.map(([no, n]) => (
            <Tag key={no} data-testid={`ship-container:${no}`}>
              {no || t('shipping.noContainer')} × {n}
            </Tag>
          ))}
        </div>
        <Table
          size="small"
          rowKey={(r) => Number(r.id)}
          loading={loading}
          dataSource={lines}
          pagination={{ pageSize: 10, size: 'small', showSizeChanger: false }}
          rowSelection={{ selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: (keys) => setSelected(keys.map(Number)) }}
          columns={[
            { key: 'carrierSn', dataIndex: 'carrierSn', title: t('shipping.serial') },
            {
              key: 'containerNo',
              dataIndex: 'containerNo',
              title: t('shipping.containers'),
              render: (v: unknown) => (v ? String(v) : t('shipping.noContainer')),
            },
          ]}
        />
        <Space wrap>
          <Input
            style={{ width: 220 }}
            placeholder={t('shipping.container')}
            maxLength={50}
            value={containerNo}
            onChange={(e) => setContainerNo(e.target.value)}
            data-testid="ship-containerize-no"
          />
          <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="ship-containerize-submit">
            {t('shipping.containerize')} ({selected.length})
          </Button>
        </Space>
      </Space>
    </div>
  );
}
