/**
 * /gps/report (also /report/gps/report): per GPS tracker the range's distance, odometer,
 * running/stopping time, top speed, alarms and temperature range; a row expands to its days.
 * Calendar days follow the browser's time zone. xlsx export of every tracker.
 */
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, App, Button, DatePicker, Input, Space, Table } from 'antd';
import { DownloadOutlined, PictureOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { Guarded, request } from '@rti/console/plugin-api';
import { downloadBlob } from '@rti/console/plugin-api';
import type { DayReport } from '../shared/report';
import type { GpsReportRow } from '../shared/vehicle-answer';
import { fmtDuration, fmtNum, tzOffset } from './format';

type Figures = Omit<DayReport, 'day'>;

export default function GpsReportPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().subtract(6, 'day').startOf('day'), dayjs().endOf('day')]);
  const [sn, setSn] = useState('');
  const [page, setPage] = useState({ page: 1, limit: 10 });
  const [data, setData] = useState<{ list: GpsReportRow[]; total: number }>();
  const [loading, setLoading] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [error, setError] = useState<string>();
  const body = useCallback(() => ({ time: [range[0].valueOf(), range[1].valueOf()], sn: sn || undefined, tz: tzOffset() }), [range, sn]);

  useEffect(() => {
    setLoading(true);
    setError(undefined);
    request<{ list: GpsReportRow[]; total: number }>('/gps/report/list', { ...body(), ...page }, { timeoutMs: 120_000 })
      .then(setData)
      .catch((e: Error) => setError(e.message))
      .finally(() => setLoading(false));
  }, [body, page]);

  const exportXlsx = async () => {
    setExporting(true);
    try {
      downloadBlob(
        await request<Blob>('/gps/report/export', body(), { blob: true, timeoutMs: 1_000_000 }),
        `gps-report-${range[0].format('YYYYMMDD')}-${range[1].format('YYYYMMDD')}.xlsx`,
      );
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setExporting(false);
    }
  };
  const snapshot = () => {
    const q = new URLSearchParams({ from: String(range[0].valueOf()), to: String(range[1].valueOf()) });
    if (sn) q.set('sn', sn);
    window.open(`/gps/report/screen/shot/map?${q}`, '_blank');
  };

  const figures = [
    { title: t('vehicle.col.distance'), key: 'd', align: 'right' as const, render: (r: Figures) => fmtNum(r.distanceKm, 2) },
    { title: t('vehicle.col.mileage'), key: 'm', align: 'right' as const, render: (r: Figures) => fmtNum(r.mileageKm, 2) },
    { title: t('vehicle.col.running'), key: 'r', align: 'right' as const, render: (r: Figures) => fmtDuration(r.runningMs) },
    { title: t('vehicle.col.stopping'), key: 's', align: 'right' as const, render: (r: Figures) => fmtDuration(r.stoppingMs) },
    { title: t('vehicle.col.maxSpeed'), key: 'v', align: 'right' as const, render: (r: Figures) => fmtNum(r.maxSpeed) },
    { title: t('vehicle.col.alarms'), key: 'a', align: 'right' as const, render: (r: Figures) => r.alarms },
    {
      title: t('vehicle.col.temp'),
      key: 't',
      align: 'right' as const,
      render: (r: Figures) => (r.tempMin === null ? '—' : `${fmtNum(r.tempMin)} ~ ${fmtNum(r.tempMax)}`),
    },
  ];

  return (
    <div data-testid="gps-report">
      <Space wrap style={{ marginBottom: 12 }}>
        <DatePicker.RangePicker
          value={range}
          allowClear={false}
          onChange={(v) => v?.[0] && v[1] && (setRange([v[0].startOf('day'), v[1].endOf('day')]), setPage((p) => ({ ...p, page: 1 })))}
          data-testid="gps-report-range"
        />
        <Input.Search
          allowClear
          placeholder={t('vehicle.searchGps')}
          style={{ width: 220 }}
          onSearch={(v) => (setSn(v.trim()), setPage((p) => ({ ...p, page: 1 })))}
        />
        <Guarded call="/gps/report/export">
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportXlsx()} data-testid="gps-report-export">
            {t('vehicle.export')}
          </Button>
        </Guarded>
        <Guarded open="/gps/report/screen/shot/map">
          <Button icon={<PictureOutlined />} onClick={snapshot}>
            {t('vehicle.snapshot')}
          </Button>
        </Guarded>
      </Space>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Table<GpsReportRow>
        rowKey="gpsId"
        size="small"
        loading={loading}
        dataSource={data?.list}
        pagination={{
          current: page.page,
          pageSize: page.limit,
          total: data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          onChange: (p, l) => setPage({ page: p, limit: l }),
        }}
        expandable={{
          rowExpandable: (r) => r.days.length > 0,
          expandedRowRender: (r) => (
            <Table<DayReport>
              rowKey="day"
              size="small"
              pagination={false}
              dataSource={r.days}
              columns={[
                { title: t('vehicle.col.day'), dataIndex: 'day' },
                ...figures.map((f) => ({ ...f, render: (_: unknown, d: DayReport) => f.render(d) })),
              ]}
            />
          ),
        }}
        columns={[
          {
            title: t('vehicle.col.gps'),
            dataIndex: 'sn',
            render: (v, r) => (
              <>
                <b>{v}</b>
                {r.name ? <div style={{ color: '#8c8c8c', fontSize: 12 }}>{r.name}</div> : null}
              </>
            ),
          },
          { title: t('vehicle.col.carrier'), dataIndex: 'carrierSn', render: (v) => v ?? '—' },
          { title: t('vehicle.col.days'), key: 'days', align: 'right', render: (_, r) => r.total.days },
          ...figures.map((f) => ({ ...f, render: (_: unknown, r: GpsReportRow) => f.render(r.total) })),
        ]}
      />
    </div>
  );
}
