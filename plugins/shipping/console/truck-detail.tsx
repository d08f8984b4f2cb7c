/**
 * /report/truck/detail?id=…: one truck shipment (server /truck) — the row of the trucks report
 * and what was loaded and what arrived per carrier code and per container, with a link to the
 * ship order it is derived from.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Card, Descriptions, Empty, Spin, Table, Tag, Typography } from 'antd';
import { TruckStatusEnum } from '@rti/metadata/browser';
import { formatDateTime, request } from '@rti/console/plugin-api';

interface Part {
  quantity: number;
  arrivalQuantity: number;
  difference: number;
}
type Truck = Record<string, any> & { carrierCodes: Array<Part & { carrierCode: string | null }>; containers: Array<Part & { containerNo: string | null }> };

const COLOR: Record<number, string> = { 10: 'processing', 20: 'blue', 30: 'warning', 40: 'success', 50: 'default' };

export default function TruckDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const [truck, setTruck] = useState<Truck | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!Number.isInteger(id) || id < 1) {
      setFailed(true);
      return;
    }
    request<Truck>('/truck', { id })
      .then(setTruck)
      .catch(() => setFailed(true));
  }, [id]);
  if (failed) return <Empty />;
  if (!truck) return <Spin style={{ display: 'block', margin: 48 }} />;
  const statusKey = Object.entries(TruckStatusEnum).find(([, v]) => v === truck.status)?.[0];
  const diff = (v: number) => <Typography.Text type={v < 0 ? 'danger' : v > 0 ? 'warning' : undefined}>{v}</Typography.Text>;
  const partColumns = [
    { title: t('shipping.truck.quantity'), dataIndex: 'quantity', align: 'right' as const },
    { title: t('shipping.truck.arrivalQuantity'), dataIndex: 'arrivalQuantity', align: 'right' as const },
    { title: t('shipping.truck.difference'), dataIndex: 'difference', align: 'right' as const, render: diff },
  ];
  return (
    <Card title={`${t('menu.truckDetail')} ${truck.sn ?? ''}`} data-testid="truck-detail">
      <Descriptions size="small" bordered column={{ xs: 1, md: 3 }}>
        <Descriptions.Item label={t('fields.orderNo')}>
          <Link to={`/ship-order-manage/ship-order/detail/${truck.id}`}>{truck.orderNo}</Link>
        </Descriptions.Item>
        <Descriptions.Item label={t('shipping.truck.sn')}>{truck.sn ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('fields.status')}>
          <Tag color={COLOR[truck.status]}>{statusKey ? t(`enums.truckStatus.${statusKey}`) : '-'}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('shipping.truck.from')}>{truck.fromWarehouse ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('shipping.truck.to')}>{truck.toWarehouse ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('shipping.truck.transportDays')}>{truck.transportDays ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('shipping.truck.departure')}>{formatDateTime(truck.departure, 'datetime', '-')}</Descriptions.Item>
        <Descriptions.Item label={t('shipping.truck.arrival')}>{formatDateTime(truck.arrival, 'datetime', '-')}</Descriptions.Item>
        <Descriptions.Item label={t('shipping.truck.difference')}>{diff(truck.difference)}</Descriptions.Item>
        <Descriptions.Item label={t('shipping.truck.position')}>{truck.position ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('shipping.truck.positionTime')}>{formatDateTime(truck.positionTime, 'datetime', '-')}</Descriptions.Item>
      </Descriptions>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('fields.carrierCode')}
      </Typography.Title>
      <Table
        size="small"
        pagination={false}
        rowKey={(r) => r.carrierCode ?? ''}
        dataSource={truck.carrierCodes}
        columns={[{ title: t('fields.carrierCode'), dataIndex: 'carrierCode', render: (v) => v ?? '-' }, ...partColumns]}
      />
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('fields.containerNo')}
      </Typography.Title>
      <Table
        size="small"
        pagination={false}
        rowKey={(r) => r.containerNo ?? ''}
        dataSource={truck.containers}
        columns={[{ title: t('fields.containerNo'), dataIndex: 'containerNo', render: (v) => v ?? '-' }, ...partColumns]}
      />
    </Card>
  );
}
