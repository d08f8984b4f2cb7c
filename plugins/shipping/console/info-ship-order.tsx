/**
 * /info/ship-order?token=…: what a driver or receiver sees after scanning the delivery note's
 * code — the order, its status, containers and carriers — read-only, without signing in
 * (public call /info/ship-order; the token alone selects the order). Laid out for a phone
 * (375 px): nothing overflows the page sideways — labels above values, the carrier table
 * keeps serial, container and status, and a table wider than the screen scrolls inside itself.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Alert, Card, Descriptions, Grid, Result, Spin, Table, Tag, Typography } from 'antd';
import { ShipOrderLineStatusEnum, ShipOrderStatusEnum, ShipOrderTypeEnum, TransportTypeEnum } from '@rti/metadata/browser';
import { formatDateTime, request } from '@rti/console/plugin-api';

interface InfoPage {
  order: Record<string, any>;
  containers: Array<{ containerNo: string | null; quantity: number; received: number }>;
  lines: Array<Record<string, any>>;
  lineTotal: number;
  truncated: boolean;
}

const keyOf = (e: Record<string, number>, v: unknown) => Object.entries(e).find(([, n]) => n === Number(v))?.[0];
const STATUS_COLOR: Record<number, string> = { 1: 'default', 2: 'processing', 3: 'blue', 4: 'success', 5: 'default', 6: 'error' };

export default function InfoShipOrderPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [page, setPage] = useState<InfoPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  // a phone (what a driver scans with): labels above values, tables scroll inside themselves
  const phone = !Grid.useBreakpoint().sm;
  useEffect(() => {
    if (!token) {
      setError(t('shipping.info.noToken'));
      return;
    }
    request<InfoPage>('/info/ship-order', { token })
      .then(setPage)
      .catch((e: Error) => setError(e.message || t('shipping.info.notFound')));
  }, [token, t]);

  const label = (name: string, e: Record<string, number>, v: unknown) => {
    const k = keyOf(e, v);
    return k ? t(`enums.${name}.${k}`) : '-';
  };
  const time = (v: unknown) => (v ? formatDateTime(v as string, 'datetime') : '-');

  if (error) return <Result status="warning" title={t('shipping.info.notFound')} subTitle={error} />;
  if (!page) return <Spin style={{ display: 'block', margin: 48 }} />;
  const o = page.order;
  return (
    <div data-testid="info-ship-order" style={{ maxWidth: '100%', minWidth: 0, overflowWrap: 'anywhere' }}>
      <Typography.Title level={phone ? 4 : 3}>
        {t('menu.infoShipOrder')} {o.orderNo} <Tag color={STATUS_COLOR[Number(o.status)]}>{label('shipOrderStatus', ShipOrderStatusEnum, o.status)}</Tag>
      </Typography.Title>
      <Card size="small">
        <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered layout={phone ? 'vertical' : 'horizontal'}>
          <Descriptions.Item label={t('fields.type')}>{label('shipOrderType', ShipOrderTypeEnum, o.type)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.transportType')}>{label('transportType', TransportTypeEnum, o.transportType)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.shipperWarehouse')}>{o.shipperWarehouse ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.receiverWarehouse')}>{o.receiverWarehouse ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.conveyanceNo')}>{o.conveyanceNo ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.etd')}>{time(o.etd)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.eta')}>{time(o.eta)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.atd')}>{time(o.atd)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.tor')}>{time(o.tor)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.totalAmount')}>{o.totalAmount}</Descriptions.Item>
          <Descriptions.Item label={t('fields.receivedAmount')}>{o.receivedAmount}</Descriptions.Item>
          <Descriptions.Item label={t('fields.missingAmount')}>{o.missingAmount}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('shipping.info.containers')}
      </Typography.Title>
      <Table
        size="small"
        rowKey={(r) => r.containerNo ?? ''}
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={page.containers}
        columns={[
          { title: t('fields.containerNo'), dataIndex: 'containerNo', render: (v) => v ?? t('shipping.info.noContainer') },
          { title: t('shipping.info.quantity'), dataIndex: 'quantity', align: 'right' },
          { title: t('shipping.info.received'), dataIndex: 'received', align: 'right' },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('shipping.info.carriers', { count: page.lineTotal })}
      </Typography.Title>
      {page.truncated && (
        <Alert type="info" showIcon style={{ marginBottom: 8 }} message={t('shipping.info.truncated', { shown: page.lines.length, total: page.lineTotal })} />
      )}
      <Table
        size="small"
        rowKey={(r) => String(r.carrierSn)}
        dataSource={page.lines}
        pagination={{ pageSize: 50, showSizeChanger: false, size: phone ? 'small' : undefined }}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: t('fields.carrierSn'), dataIndex: 'carrierSn' },
          { title: t('fields.carrierCode'), dataIndex: 'carrierCode', render: (v) => v ?? '-', responsive: ['sm'] },
          { title: t('fields.containerNo'), dataIndex: 'containerNo', render: (v) => v ?? '-' },
          { title: t('fields.deliveryNo'), dataIndex: 'deliveryNo', render: (v) => v ?? '-', responsive: ['sm'] },
          { title: t('fields.status'), dataIndex: 'status', render: (v) => label('shipOrderLineStatus', ShipOrderLineStatusEnum, v) },
          { title: t('fields.receiptTime'), dataIndex: 'receiptTime', render: time, responsive: ['sm'] },
        ]}
      />
    </div>
  );
}
