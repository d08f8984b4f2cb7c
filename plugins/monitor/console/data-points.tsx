import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { App, Button, Card, DatePicker, Descriptions, Empty, Input, Space, Spin, Table } from 'antd';
import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { Guarded, request, useCan, formatDateTime } from '@rti/console/plugin-api';
import { DATA_POINT_KINDS, detailHref, type DataPointKind } from './data-point-kinds';

type Row = Record<string, unknown>;
const fmt = (v: unknown, field: string) =>
  v === null || v === undefined || v === '' ? '-' : field === 'time' || field === 'ts' ? formatDateTime(String(v)) : String(v);

function useLabel() {
  const { t } = useTranslation();
  return (f: string) => t(`fields.${f}`, { defaultValue: f });
}

/** Data points of one series: device and time-range filters (default the last 24 h), paged, xlsx export, detail per point. */
function DataPointList({ k }: { k: DataPointKind }) {
  const { t } = useTranslation();
  const label = useLabel();
  const { message } = App.useApp();
  const navigate = useNavigate();
  // a row opens its point only for users who may open the detail page
  const canDetail = useCan({ open: detailHref(k, {}) });
  const [device, setDevice] = useState('');
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(1, 'day'), dayjs()]);
  const [page, setPage] = useState({ page: 1, limit: 20 });
  const [data, setData] = useState<{ list: Row[]; total: number }>({ list: [], total: 0 });
  const [loading, setLoading] = useState(false);
  const [exporting, setExporting] = useState(false);
  const filters = useCallback(
    () => ({ ...(device.trim() ? { [k.key]: device.trim() } : {}), time: [range[0].valueOf(), range[1].valueOf()] }),
    [device, range, k.key],
  );

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setData(await request<{ list: Row[]; total: number }>(`/data-points/${k.kind}/list`, { ...filters(), ...page }));
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setLoading(false);
    }
  }, [filters, page, k.kind, message]);
  useEffect(() => void load(), [page]); // eslint-disable-line react-hooks/exhaustive-deps

  const exportXlsx = async () => {
    setExporting(true);
    try {
      const blob = await request<Blob>(`/data-points/${k.kind}/export`, filters(), { blob: true, timeoutMs: 120_000 });
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = `data-points-${k.kind}-${dayjs().format('YYYYMMDD-HHmm')}.xlsx`;
      a.click();
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Card size="small" data-testid={`data-points-${k.kind}`}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input
          allowClear
          placeholder={label(k.key)}
          value={device}
          onChange={(e) => setDevice(e.target.value)}
          style={{ width: 220 }}
          onPressEnter={() => setPage({ ...page, page: 1 })}
        />
        <DatePicker.RangePicker showTime value={range} allowClear={false} onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])} />
        <Button type="primary" icon={<SearchOutlined />} onClick={() => setPage({ ...page, page: 1 })}>
          {t('meta.search', { defaultValue: 'Search' })}
        </Button>
        <Guarded call={`/data-points/${k.kind}/export`}>
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportXlsx()}>
            {t('meta.export', { defaultValue: 'Export' })}
          </Button>
        </Guarded>
      </Space>
      <Table
        size="small"
        loading={loading}
        rowKey={(r) => `${String(r[k.key])}:${String(r[k.timeField])}:${String(r.gatewayMac ?? '')}`}
        dataSource={data.list}
        scroll={{ x: 'max-content' }}
        onRow={(r) => (canDetail ? { onClick: () => void navigate(detailHref(k, r)), style: { cursor: 'pointer' } } : {})}
        pagination={{
          current: page.page,
          pageSize: page.limit,
          total: data.total,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          onChange: (p, l) => setPage({ page: p, limit: l }),
        }}
        columns={k.columns.map((c) => ({ title: label(c), dataIndex: c, render: (v: unknown) => fmt(v, c) }))}
      />
    </Card>
  );
}

/** One point: the exact one named in the URL (device + time), else the device's newest. */
function DataPointDetail({ k }: { k: DataPointKind }) {
  const label = useLabel();
  const [params] = useSearchParams();
  const [row, setRow] = useState<Row | null>();
  const device = params.get(k.key) ?? '';
  const at = params.get('t');
  useEffect(() => {
    let live = true;
    const run = async () => {
      if (at) {
        const ms = Date.parse(at);
        const hit = await request<{ list: Row[] }>(`/data-points/${k.kind}/list`, { [k.key]: device, time: [ms, ms], page: 1, limit: 1 });
        if (hit.list[0]) return hit.list[0];
      }
      return request<Row>(`/data-points/${k.kind}`, { [k.key]: device });
    };
    run().then(
      (r) => live && setRow(r),
      () => live && setRow(null),
    );
    return () => {
      live = false;
    };
  }, [k, device, at]);
  if (row === undefined) return <Spin />;
  if (row === null) return <Empty />;
  const fields = [...k.columns, ...Object.keys(row).filter((f) => !k.columns.includes(f))];
  return (
    <Card size="small" data-testid={`data-point-${k.kind}-detail`}>
      <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 3 }} items={fields.map((f) => ({ key: f, label: label(f), children: fmt(row[f], f) }))} />
    </Card>
  );
}

export const BeaconDataPoints = () => <DataPointList k={DATA_POINT_KINDS.beacon} />;
export const GpsDataPoints = () => <DataPointList k={DATA_POINT_KINDS.gps} />;
export const BeaconDataPoint = () => <DataPointDetail k={DATA_POINT_KINDS.beacon} />;
export const GpsDataPoint = () => <DataPointDetail k={DATA_POINT_KINDS.gps} />;
