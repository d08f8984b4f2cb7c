/**
 * The frame of the ship order's own screens (SPEC §2 "ship order: add carrier, containerize"):
 * the order of `?id=` read from the server, its number, status, route and total, a way back
 * to its detail page, and the screen's panel while the order's status allows it.
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert, Button, Card, Descriptions, Result, Spin, Tag } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { ShipOrderStatusEnum } from '@rti/metadata/browser';
import { request, useMetadata } from '@rti/console/plugin-api';

type Row = Record<string, unknown>;

export const SHIP_ORDER_ROUTE = '/ship-order-manage/ship-order';
export const ADD_CARRIER_PATH = `${SHIP_ORDER_ROUTE}/add-carrier`;
export const CONTAINERIZE_PATH = `${SHIP_ORDER_ROUTE}/containerize`;

/** Lines change while the order is new (metadata freezes them afterwards). */
export const linesOpen = (record: Row): boolean => record.status === ShipOrderStatusEnum.new && record.id != null;

/** `?id=` as an order id, or null when it is missing or not an id */
export function orderIdOf(search: URLSearchParams): number | null {
  const raw = search.get('id');
  if (!raw || !/^[1-9]\d{0,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n <= 2 ** 31 - 1 ? n : null;
}

export function OrderScreen({
  titleKey,
  allowed,
  testId,
  children,
}: {
  titleKey: string;
  allowed: (r: Row) => boolean;
  testId: string;
  children: (record: Row, reload: () => void) => ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { enums } = useMetadata();
  const [search] = useSearchParams();
  const id = orderIdOf(search);
  const [record, setRecord] = useState<Row | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [seq, setSeq] = useState(0);

  useEffect(() => {
    if (id === null) return;
    let live = true;
    request<Row>('/ship-order', { id })
      .then((r) => live && (setRecord(r), setError(null)))
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [id, seq]);
  // after a change: the order's total and status again
  const reload = useCallback(() => setSeq((s) => s + 1), []);

  if (id === null || error)
    return (
      <Result
        status="404"
        title={t('shipping.orderScreen.missing')}
        subTitle={error ?? undefined}
        extra={<Button onClick={() => void navigate(SHIP_ORDER_ROUTE)}>{t('shipping.orderScreen.toList')}</Button>}
      />
    );
  if (!record) return <Spin style={{ display: 'block', margin: 48 }} />;
  const status = (enums.shipOrderStatus ?? []).find((e) => String(e.value) === String(record.status));
  const statusText = status ? t(status.label) : String(record.status ?? '');
  return (
    <Card
      data-testid={testId}
      title={t(titleKey, { orderNo: String(record.orderNo ?? '') })}
      extra={
        <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(`${SHIP_ORDER_ROUTE}/detail/${id}`)} data-testid="ship-order-back">
          {t('shipping.orderScreen.back')}
        </Button>
      }
    >
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, md: 4 }}
        style={{ marginBottom: 16 }}
        items={[
          { key: 'status', label: t('fields.status'), children: <Tag color={status?.color ?? undefined}>{statusText}</Tag> },
          { key: 'from', label: t('fields.shipperWarehouse'), children: String(record.shipperWarehouseIdLabel ?? '-') },
          { key: 'to', label: t('fields.receiverWarehouse'), children: String(record.receiverWarehouseIdLabel ?? '-') },
          { key: 'total', label: t('fields.totalAmount'), children: <span data-testid="ship-order-total">{String(record.totalAmount ?? 0)}</span> },
        ]}
      />
      {allowed(record) ? (
        children(record, reload)
      ) : (
        <Alert
          type="info"
          showIcon
          message={t('shipping.orderScreen.notNow', { orderNo: String(record.orderNo ?? ''), status: statusText })}
          data-testid="ship-order-not-now"
        />
      )}
    </Card>
  );
}
