/**
 * Ship-order monitor (SPEC §2 home group, `/ship-order/monitor`): open ship orders in transit
 * on the user's map provider (the map plugin's, through its package exports) — route line
 * shipper → receiver, the order's position (reported, else estimated from the share of the
 * route's transport time spent), due time against now, late ones in the legend's late colour
 * and first in the list; a click shows the order (`/ship-order/get4map`) with a link to its
 * detail page. Reloads every minute.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from '@rti/console/plugin-api';
import { Alert, Badge, Button, Card, Descriptions, Empty, Grid, List, Progress, Space, Switch, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { formatDateTime, request, useAutoRefresh, useMetadata } from '@rti/console/plugin-api';
import { MapView } from '@rti/plugin-map/console/map-view';
import { useProvider } from '@rti/plugin-map/console/use-provider';
import { rgbCss, tagRgb, CITIES } from '@rti/plugin-map/console/map-settings';
import type { MapRoute, MapWarehouse, PointSet, ViewTarget } from '@rti/plugin-map/console/map-types';
import { boundsOf, fixText, hoursLeft, LATE, LATE_COLOR, markerStatus, orderPosition, progress, type LegendItem, type MapOrder } from './monitor-logic';

const REFRESH_MS = 60_000;

interface Answer {
  orders: MapOrder[];
  legend: LegendItem[];
  time: number;
}

const load = async (): Promise<Answer> => {
  const [orders, legend] = await Promise.all([request<MapOrder[]>('/ship-order/list4map', {}), request<LegendItem[]>('/ship-order/listlegend4map', {})]);
  return { orders, legend, time: Date.now() };
};

export default function ShipOrderMonitorPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const provider = useProvider();
  const { resources } = useMetadata();
  const screens = Grid.useBreakpoint();
  const narrow = !screens.md;
  const { data, error, loading, reload } = useAutoRefresh(useCallback(load, []), REFRESH_MS);
  const [onlyLate, setOnlyLate] = useState(false);
  const [selected, setSelected] = useState<number>();
  const [target, setTarget] = useState<ViewTarget>({ lng: CITIES[0].lng, lat: CITIES[0].lat, zoom: 5, seq: 0 });

  const now = data?.time ?? Date.now();
  // late first, then the soonest due
  const orders = useMemo(() => {
    const all = (data?.orders ?? []).filter((o) => !onlyLate || o.late);
    return [...all].sort((a, b) => Number(b.late) - Number(a.late) || String(a.dueAt ?? '~').localeCompare(String(b.dueAt ?? '~')));
  }, [data, onlyLate]);

  const colorOf = useMemo(() => {
    const by = new Map<number, [number, number, number]>();
    for (const l of data?.legend ?? []) by.set(l.key === 'late' ? LATE : Number(l.status), tagRgb(l.color ?? undefined));
    return (st: number) => by.get(st) ?? tagRgb('default');
  }, [data]);

  const placedOrders = useMemo(
    () => orders.map((o) => ({ o, at: orderPosition(o, now) })).filter((x): x is { o: MapOrder; at: NonNullable<ReturnType<typeof orderPosition>> } => !!x.at),
    [orders, now],
  );

  const points = useMemo<PointSet>(
    () => ({
      id: placedOrders.map((x) => x.o.id),
      kind: placedOrders.map(() => 1),
      lng: placedOrders.map((x) => x.at.lng),
      lat: placedOrders.map((x) => x.at.lat),
      st: placedOrders.map((x) => markerStatus(x.o)),
      version: now + placedOrders.length,
    }),
    [placedOrders, now],
  );

  const routes = useMemo<MapRoute[]>(
    () =>
      orders
        .filter((o) => o.from?.longitude != null && o.from.latitude != null && o.to?.longitude != null && o.to.latitude != null)
        .map((o) => ({
          id: o.id,
          name: o.orderNo,
          color: rgbHex(colorOf(markerStatus(o))),
          from: [o.from!.longitude!, o.from!.latitude!],
          to: [o.to!.longitude!, o.to!.latitude!],
        })),
    [orders, colorOf],
  );

  const warehouses = useMemo<MapWarehouse[]>(() => {
    const by = new Map<number, MapWarehouse>();
    for (const o of orders)
      for (const e of [o.from, o.to])
        if (e && e.longitude != null && e.latitude != null)
          by.set(e.id, { id: e.id, orgId: 0, name: e.name, lng: e.longitude, lat: e.latitude, color: null, fence: null });
    return [...by.values()];
  }, [orders]);

  // fit everything once the first answer is in (and when the filter changes)
  useEffect(() => {
    const b = boundsOf([...warehouses.map((w) => [w.lng, w.lat] as [number, number]), ...placedOrders.map((x) => [x.at.lng, x.at.lat] as [number, number])]);
    if (b)
      setTarget((tg) => ({
        lng: (b[0] + b[2]) / 2,
        lat: (b[1] + b[3]) / 2,
        zoom: 12,
        bounds: b,
        padding: { top: 60, right: 60, bottom: 60, left: 60 },
        seq: tg.seq + 1,
      }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data === undefined, onlyLate]);

  const focus = (o: MapOrder) => {
    setSelected(o.id);
    // the whole route with the order's position on it
    const at = orderPosition(o, now);
    const ends = [o.from, o.to].filter((e) => e?.longitude != null && e.latitude != null).map((e) => [e!.longitude!, e!.latitude!] as [number, number]);
    const b = boundsOf([...ends, ...(at ? [[at.lng, at.lat] as [number, number]] : [])]);
    if (b)
      setTarget((tg) => ({
        lng: (b[0] + b[2]) / 2,
        lat: (b[1] + b[3]) / 2,
        zoom: 12,
        bounds: b,
        padding: { top: 60, right: narrow ? 60 : 380, bottom: 60, left: 60 },
        seq: tg.seq + 1,
      }));
  };

  const detailPath = (id: number) => `${resources['ship-order']?.route ?? '/ship-order-manage/ship-order'}/detail/${id}`;
  const current = orders.find((o) => o.id === selected);

  return (
    <div
      data-testid="ship-monitor"
      style={{ display: 'flex', flexDirection: 'column', gap: 8, height: narrow ? 'auto' : 'calc(100vh - 150px)', minHeight: 420 }}
    >
      <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Space wrap>
          <Typography.Text strong>{t('shipping.monitor.title')}</Typography.Text>
          <Tag data-testid="ship-monitor-count">{t('shipping.monitor.inTransit', { count: data?.orders.length ?? 0 })}</Tag>
          {(data?.legend ?? []).map((l) => (
            <span key={l.key} data-testid={`ship-monitor-legend:${l.key}`} style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
              <span
                style={{
                  display: 'inline-block',
                  width: 10,
                  height: 10,
                  borderRadius: 5,
                  background: rgbCss(colorOf(l.key === 'late' ? LATE : Number(l.status))),
                  marginRight: 4,
                }}
              />
              {l.label} ({l.count})
            </span>
          ))}
        </Space>
        <Space>
          <Switch size="small" checked={onlyLate} onChange={setOnlyLate} data-testid="ship-monitor-only-late" />
          <span>{t('shipping.monitor.onlyLate')}</span>
          <Button size="small" icon={<ReloadOutlined />} loading={loading} onClick={() => void reload()} data-testid="ship-monitor-refresh">
            {t('shipping.monitor.refresh')}
          </Button>
        </Space>
      </Space>
      {error && <Alert type="error" showIcon message={error} />}
      <div style={{ display: 'flex', flexDirection: narrow ? 'column' : 'row', gap: 8, flex: 1, minHeight: 0 }}>
        <div
          style={{ position: 'relative', flex: 1, minHeight: narrow ? '55vh' : 0, borderRadius: 6, overflow: 'hidden', background: '#eef2f6' }}
          data-testid="ship-monitor-map"
        >
          {data && (
            <MapView
              provider={provider}
              target={target}
              points={points}
              statusColor={colorOf}
              routes={routes}
              warehouses={warehouses}
              onPick={(i) => {
                const o = placedOrders[i]?.o;
                if (o) setSelected(o.id);
              }}
              pointLabel={(i) => placedOrders[i]?.o.orderNo ?? ''}
            />
          )}
          {current && (
            <Card
              size="small"
              style={{ position: 'absolute', right: 12, top: 12, width: narrow ? 'calc(100% - 24px)' : 340, zIndex: 5, boxShadow: '0 2px 8px rgba(0,0,0,.15)' }}
              title={current.orderNo}
              extra={
                <Button size="small" type="link" onClick={() => setSelected(undefined)}>
                  ×
                </Button>
              }
            >
              <OrderCard order={current} now={now} onOpen={() => navigate(detailPath(current.id))} />
            </Card>
          )}
        </div>
        <div style={{ width: narrow ? '100%' : 320, overflow: 'auto' }} data-testid="ship-monitor-list">
          <List
            size="small"
            bordered
            dataSource={orders}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('shipping.monitor.empty')} /> }}
            renderItem={(o) => {
              const h = hoursLeft(o.dueAt, now);
              return (
                <List.Item
                  onClick={() => focus(o)}
                  style={{
                    cursor: 'pointer',
                    background: o.id === selected ? '#e6f4ff' : undefined,
                    borderLeft: `4px solid ${rgbCss(colorOf(markerStatus(o)))}`,
                  }}
                  data-testid={`ship-monitor-item:${o.orderNo}`}
                  data-late={o.late}
                >
                  <div style={{ width: '100%' }}>
                    <Space style={{ justifyContent: 'space-between', width: '100%' }}>
                      <Typography.Text strong>{o.orderNo}</Typography.Text>
                      {o.late ? <Tag color={LATE_COLOR}>{t('shipping.monitor.late')}</Tag> : <Tag color="success">{t('shipping.monitor.onTime')}</Tag>}
                    </Space>
                    <div style={{ fontSize: 12 }}>{t('shipping.monitor.route', { from: o.from?.name ?? '-', to: o.to?.name ?? '-' })}</div>
                    {h !== null && (
                      <Typography.Text type={h < 0 ? 'danger' : 'secondary'} style={{ fontSize: 12 }}>
                        {h < 0 ? t('shipping.monitor.overdue', { hours: -h }) : t('shipping.monitor.remaining', { hours: h })}
                      </Typography.Text>
                    )}
                  </div>
                </List.Item>
              );
            }}
          />
        </div>
      </div>
    </div>
  );
}

function rgbHex(c: readonly number[]): string {
  return `#${c
    .slice(0, 3)
    .map((x) => x.toString(16).padStart(2, '0'))
    .join('')}`;
}

/** The clicked order: times against the route's transport time and its lines by status. */
function OrderCard({ order, now, onOpen }: { order: MapOrder; now: number; onOpen: () => void }) {
  const { t } = useTranslation();
  const { enums } = useMetadata();
  const [lines, setLines] = useState<Record<string, number>>();
  useEffect(() => {
    let live = true;
    setLines(undefined);
    request<MapOrder & { lines: Record<string, number> }>('/ship-order/get4map', { id: order.id })
      .then((d) => live && setLines(d.lines))
      .catch(() => live && setLines({}));
    return () => {
      live = false;
    };
  }, [order.id]);
  const p = progress(order, now);
  const at = orderPosition(order, now);
  const fix = fixText(order.position);
  const h = hoursLeft(order.dueAt, now);
  const lineLabel = (s: string) => {
    const e = (enums.shipOrderLineStatus ?? []).find((x) => String(x.value) === s);
    return e ? t(e.label) : s;
  };
  return (
    <div data-testid="ship-monitor-detail">
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'route', label: t('fields.route'), children: t('shipping.monitor.route', { from: order.from?.name ?? '-', to: order.to?.name ?? '-' }) },
          { key: 'atd', label: t('shipping.monitor.departed'), children: formatDateTime(order.atd ?? undefined) || '-' },
          {
            key: 'due',
            label: t('shipping.monitor.due'),
            children: <span data-testid="ship-monitor-due">{formatDateTime(order.dueAt ?? undefined) || '-'}</span>,
          },
          { key: 'eta', label: t('shipping.monitor.eta'), children: formatDateTime(order.eta ?? undefined) || '-' },
          {
            key: 'progress',
            label: t('shipping.monitor.progress'),
            children: p === null ? '-' : <Progress size="small" percent={Math.round(p * 100)} status={order.late ? 'exception' : 'active'} />,
          },
          {
            key: 'lines',
            label: t('shipping.monitor.carriers'),
            children: lines ? (
              <Space wrap size={4}>
                {Object.entries(lines).map(([s, n]) => (
                  <Badge key={s} count={n} showZero overflowCount={99999} color="#8c8c8c">
                    <Tag style={{ marginRight: 12 }}>{lineLabel(s)}</Tag>
                  </Badge>
                ))}
              </Space>
            ) : (
              '…'
            ),
          },
        ]}
      />
      {h !== null && h < 0 && <Alert type="error" showIcon style={{ margin: '6px 0' }} message={t('shipping.monitor.overdue', { hours: -h })} />}
      {!at ? (
        <Typography.Text type="secondary">{t('shipping.monitor.noPosition')}</Typography.Text>
      ) : at.estimated ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="ship-monitor-estimated">
          {t('shipping.monitor.estimated')}
        </Typography.Text>
      ) : (
        // which device saw it last, and when: a fix hours old reads differently from one a minute old
        <Typography.Text style={{ fontSize: 12 }} data-testid="ship-monitor-fix">
          {t('shipping.monitor.lastSeen')}: {fix ? t(fix.key, fix.params) : ''} · {formatDateTime(order.position?.time ?? undefined) || '-'}
        </Typography.Text>
      )}
      <div style={{ marginTop: 8 }}>
        <Button type="primary" size="small" onClick={onOpen} data-testid="ship-monitor-open">
          {t('shipping.monitor.openDetail')}
        </Button>
      </div>
    </div>
  );
}
