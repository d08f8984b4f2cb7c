/**
 * Track history (SPEC §2 /map/history, /map/bingHistory and their /admin variants): a
 * carrier's or tracker's track over 10 days, 30 days or a custom range; playback with
 * play/pause, speed and scrub; stops and events; sensor charts following the playback;
 * exports through the server: PDF report (map, summary, charts), xlsx of the points, one xlsx
 * per sensor series and the mix points.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Alert, App, Button, Checkbox, DatePicker, Dropdown, Empty, Radio, Select, Slider, Space, Tag } from 'antd';
import { CaretRightOutlined, DownloadOutlined, DownOutlined, FilePdfOutlined, PauseOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { request, useCan, formatDateTime } from '@rti/console/plugin-api';
import { positionAt } from '@rti/common';
import type { Stop } from '@rti/common';
import { PROVIDER_A, PROVIDER_B, CITIES, DEFAULT_ZOOM } from './map-settings';
import type { ViewTarget } from './map-types';
import { MapView } from './map-view';
import { SensorCharts, type SensorColumns } from './sensor-charts';
import { useEnumColors } from './use-status-colors';

interface HistoryAnswer {
  subject: {
    carrierId: number | null;
    carrierSn: string | null;
    carrierName: string | null;
    gpsSn: string | null;
    gpsName: string | null;
    beaconMac: string | null;
  };
  /** with an empty track: the newest known position */
  last: { t: number; lng: number; lat: number } | null;
  from: string;
  to: string;
  track: { t: number[]; lng: number[]; lat: number[]; speed: (number | null)[]; src: number[] };
  sensors: SensorColumns;
  events: Array<{ t: number; code: string; value: string | null; lng: number | null; lat: number | null }>;
  stops: Stop[];
  total: number;
}

const DAY = 86_400_000;
/** whole track in 60 s at 1× */
const SPEEDS = [1, 2, 4, 8, 16];

const carrierLabel = (sn: string | null, name: string | null) => `${sn ?? '-'}${name ? ' · ' + name : ''}`;
const gpsLabel = (sn: string | null, name: string | null) => `GPS ${sn ?? '-'}${name ? ' · ' + name : ''}`;

/** The subject as people know it (serial and name), from a history answer. */
function subjectLabel(s: HistoryAnswer['subject']): string {
  return s.carrierId !== null ? carrierLabel(s.carrierSn, s.carrierName) : gpsLabel(s.gpsSn, s.gpsName);
}

function useSubjects(search: string) {
  const [opts, setOpts] = useState<Array<{ value: string; label: string }>>([]);
  useEffect(() => {
    const ctrl = new AbortController();
    const q = search.trim();
    // each list answers an empty one when it fails (or is aborted): this chain cannot reject
    void Promise.all([
      request<{ list: Array<Record<string, any>> }>('/carrier/list', { sn: q || undefined, limit: 20 }, { signal: ctrl.signal }).catch(() => ({ list: [] })),
      request<{ list: Array<Record<string, any>> }>('/device-gps/list', { sn: q || undefined, limit: 20 }, { signal: ctrl.signal }).catch(() => ({ list: [] })),
    ]).then(([c, g]) =>
      setOpts([
        ...c.list.map((r) => ({ value: `carrierId:${r.id}`, label: carrierLabel(r.sn, r.name) })),
        ...g.list.map((r) => ({ value: `gpsId:${r.id}`, label: gpsLabel(r.sn, r.name) })),
      ]),
    );
    return () => ctrl.abort();
  }, [search]);
  return opts;
}

export function HistoryScreen({ admin, provider }: { admin: boolean; provider: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [params] = useSearchParams();
  const initial = params.get('carrierId') ? `carrierId:${params.get('carrierId')}` : params.get('gpsId') ? `gpsId:${params.get('gpsId')}` : undefined;
  const [subject, setSubject] = useState<string | undefined>(initial);
  const [search, setSearch] = useState('');
  const found = useSubjects(search);
  // the chosen subject keeps its serial and name even when the search list no longer holds it
  // (opened from a link, or another search typed since): never a raw "carrierId:17"
  const [labels, setLabels] = useState<Record<string, string>>({});
  const options = useMemo(() => {
    if (!subject || found.some((o) => o.value === subject)) return found;
    return [{ value: subject, label: labels[subject] ?? t('map.loadingSubject') }, ...found];
  }, [found, subject, labels, t]);

  const [preset, setPreset] = useState<'10' | '30' | 'custom'>('10');
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().subtract(10, 'day'), dayjs()]);
  const [mix, setMix] = useState(false);
  const [data, setData] = useState<HistoryAnswer>();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  const [time, setTime] = useState<number | null>(null);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const [target, setTarget] = useState<ViewTarget>({ lng: CITIES[0].lng, lat: CITIES[0].lat, zoom: DEFAULT_ZOOM, seq: 0 });
  useEnumColors('transportStatus');

  const body = useMemo(() => {
    if (!subject) return undefined;
    const [k, v] = subject.split(':');
    const to = preset === 'custom' ? range[1].valueOf() : Date.now();
    const from = preset === 'custom' ? range[0].valueOf() : to - Number(preset) * DAY;
    return { [k]: Number(v), time: [from, to] };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [subject, preset, range]);
  const path = `/map/history${mix ? '/mix' : ''}${admin ? '/admin' : ''}`;
  // export buttons only for users holding the export calls' codes (SPEC §6)
  const can = { pdf: useCan({ call: `${path}/export/pdf` }), xlsx: useCan({ call: `${path}/export` }), series: useCan({ call: `${path}/export/temperature` }) };

  useEffect(() => {
    if (!body) return;
    setLoading(true);
    setError(undefined);
    setPlaying(false);
    request<HistoryAnswer>(path, body, { timeoutMs: 120_000 })
      .then((h) => {
        setData(h);
        setLabels((l) => ({ ...l, [subject!]: subjectLabel(h.subject) }));
        setTime(h.track.t[0] ?? null);
        if (h.track.t.length) {
          let w = 180,
            s = 90,
            e = -180,
            n = -90;
          h.track.lng.forEach((x, i) => {
            w = Math.min(w, x);
            e = Math.max(e, x);
            s = Math.min(s, h.track.lat[i]);
            n = Math.max(n, h.track.lat[i]);
          });
          setTarget((x) => ({ ...x, zoom: DEFAULT_ZOOM, bounds: [w, s, e, n], seq: x.seq + 1 }));
        }
      })
      .catch((e: Error) => setError(e.message))
      .finally(() => setLoading(false));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [body, path]);

  /** an empty period: show the last known position on the map, or the period that holds it */
  const showLast = () => {
    const last = data?.last;
    if (!last) return;
    setTarget((x) => ({ lng: last.lng, lat: last.lat, zoom: DEFAULT_ZOOM, seq: x.seq + 1 }));
  };
  const periodOfLast = () => {
    const last = data?.last;
    if (!last) return;
    setPreset('custom');
    setRange([dayjs(last.t).subtract(10, 'day'), dayjs(last.t).add(1, 'minute')]);
  };

  const t0 = data?.track.t[0] ?? 0;
  const t1 = data?.track.t[data.track.t.length - 1] ?? 0;

  // playback clock: real-time frames move the cursor by (duration / 60 s) × speed
  const last = useRef(0);
  useEffect(() => {
    if (!playing || !data) return;
    let raf = 0;
    last.current = performance.now();
    const step = (now: number) => {
      const dt = now - last.current;
      last.current = now;
      setTime((cur) => {
        const next = (cur ?? t0) + ((t1 - t0) / 60_000) * speed * dt;
        if (next >= t1) {
          setPlaying(false);
          return t1;
        }
        return next;
      });
      raf = requestAnimationFrame(step);
    };
    raf = requestAnimationFrame(step);
    return () => cancelAnimationFrame(raf);
  }, [playing, speed, data, t0, t1]);

  const overlay = useMemo(() => {
    if (!data) return undefined;
    const tr = data.track;
    // nothing in the period: the last known position is marked (the map moves there on request)
    if (!tr.t.length) return data.last ? { path: [], stops: [], events: [], cursor: [data.last.lng, data.last.lat] as [number, number] } : undefined;
    const p = time !== null ? positionAt(tr, time) : null;
    return {
      path: tr.lng.map((x, i) => [x, tr.lat[i]] as [number, number]),
      stops: data.stops,
      events: data.events.filter((e) => e.lng !== null).map((e) => ({ lng: e.lng!, lat: e.lat!, code: e.code })),
      cursor: p ? ([p.lng, p.lat] as [number, number]) : null,
    };
  }, [data, time]);
  // the chart cursor moves at most 5 times a second
  const [chartCursor, setChartCursor] = useState<number | null>(null);
  useEffect(() => {
    const id = setTimeout(() => setChartCursor(time), 200);
    return () => clearTimeout(id);
  }, [time]);

  // exports run the history query again on the server: PDF report, xlsx of the points, one
  // xlsx per sensor series, and the mix (beacon + GPS) points
  const [exporting, setExporting] = useState<string>();
  const download = async (suffix: string, ext: 'pdf' | 'xlsx') => {
    if (!body) return;
    setExporting(suffix || 'xlsx');
    try {
      const blob = await request<Blob>(`${path}/export${suffix}`, { ...body, utcOffset: dayjs().utcOffset() }, { blob: true, timeoutMs: 1_000_000 });
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = `history${suffix.replace('/', '-')}-${dayjs().format('YYYYMMDD-HHmmss')}.${ext}`;
      a.click();
      URL.revokeObjectURL(a.href);
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setExporting(undefined);
    }
  };
  const seriesExports = [
    { key: 'temperature', label: t('map.sensors.temp') },
    { key: 'humidity', label: t('map.sensors.hum') },
    { key: 'shock', label: t('map.sensors.shock') },
    { key: 'pressure', label: t('map.sensors.pres') },
    ...(mix ? [] : [{ key: 'mix', label: t('map.mix') }]),
  ];

  const fmt = (v: number) => formatDateTime(v, 'minute');
  const day = (iso: string) => formatDateTime(iso, 'minute');
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8, height: 'calc(100vh - 150px)', minHeight: 560 }} data-testid="history-page">
      <Space wrap className="history-toolbar">
        <Select
          showSearch
          allowClear
          style={{ width: 260 }}
          placeholder={t('map.pickSubject')}
          value={subject}
          options={options}
          filterOption={false}
          onSearch={setSearch}
          onChange={setSubject}
          data-testid="history-subject"
        />
        <Radio.Group
          value={preset}
          onChange={(e) => setPreset(e.target.value)}
          optionType="button"
          data-testid="history-preset"
          options={[
            { value: '10', label: t('map.days10') },
            { value: '30', label: t('map.days30') },
            { value: 'custom', label: t('map.custom') },
          ]}
        />
        {preset === 'custom' && <DatePicker.RangePicker showTime value={range} onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])} />}
        <Checkbox checked={mix} onChange={(e) => setMix(e.target.checked)} data-testid="history-mix">
          {t('map.mix')}
        </Checkbox>
        {can.pdf && (
          <Button
            icon={<FilePdfOutlined />}
            disabled={!data?.track.t.length}
            loading={exporting === '/pdf'}
            onClick={() => void download('/pdf', 'pdf')}
            data-testid="history-pdf"
          >
            PDF
          </Button>
        )}
        {can.xlsx && (
          <Button
            icon={<DownloadOutlined />}
            disabled={!data?.track.t.length}
            loading={exporting === 'xlsx'}
            onClick={() => void download('', 'xlsx')}
            data-testid="history-export"
          >
            xlsx
          </Button>
        )}
        {can.series && (
          <Dropdown disabled={!data?.track.t.length} menu={{ items: seriesExports, onClick: ({ key }) => void download(`/${key}`, 'xlsx') }}>
            <Button icon={<DownOutlined />} loading={!!exporting && !['/pdf', 'xlsx'].includes(exporting)} data-testid="history-export-series">
              {t('map.exportSeries')}
            </Button>
          </Dropdown>
        )}
        {data && (
          <span style={{ color: '#595959' }}>
            {t('map.points', { count: data.total })} · {t('map.stops', { count: data.stops.length })} · {t('map.events', { count: data.events.length })}
          </span>
        )}
      </Space>
      {error && <Alert type="error" showIcon message={error} />}
      <div style={{ display: 'flex', gap: 8, flex: 1, minHeight: 0 }}>
        <div style={{ position: 'relative', flex: 3, borderRadius: 6, overflow: 'hidden', border: '1px solid #f0f0f0' }}>
          <MapView
            provider={provider === PROVIDER_B ? PROVIDER_B : PROVIDER_A}
            target={target}
            statusColor={() => [22, 119, 255]}
            track={overlay}
            preserveDrawingBuffer
          />
          {!subject && <Empty style={{ position: 'absolute', top: '40%', width: '100%' }} description={t('map.pickSubject')} />}
          {subject && data && !loading && !data.track.t.length && (
            <div
              className="map-history-empty"
              data-testid="history-empty"
              style={{
                position: 'absolute',
                left: '50%',
                top: 16,
                transform: 'translateX(-50%)',
                zIndex: 5,
                maxWidth: 'calc(100% - 24px)',
                background: 'rgba(255,255,255,.96)',
                borderRadius: 6,
                padding: '10px 14px',
                boxShadow: '0 6px 16px rgba(0,0,0,.12)',
                textAlign: 'center',
              }}
            >
              <div style={{ fontWeight: 600 }}>{t('map.noTrack', { from: day(data.from), to: day(data.to) })}</div>
              {data.last ? (
                <>
                  <div style={{ color: '#595959', margin: '4px 0 8px' }}>{t('map.lastKnown', { time: formatDateTime(data.last.t, 'minute') })}</div>
                  <Space wrap style={{ justifyContent: 'center' }}>
                    <Button size="small" onClick={showLast} data-testid="history-show-last">
                      {t('map.showLast')}
                    </Button>
                    <Button size="small" type="primary" onClick={periodOfLast} data-testid="history-period-of-last">
                      {t('map.periodOfLast')}
                    </Button>
                  </Space>
                </>
              ) : (
                <div style={{ color: '#595959', marginTop: 4 }}>{t('map.noPositionEver')}</div>
              )}
            </div>
          )}
        </div>
        <div style={{ flex: 2, minWidth: 280, border: '1px solid #f0f0f0', borderRadius: 6, padding: 4 }}>
          {data && data.sensors.t.length ? (
            <SensorCharts data={data.sensors} cursor={chartCursor} onSeek={setTime} />
          ) : (
            <Empty style={{ marginTop: 80 }} description={t('map.noSensors')} />
          )}
        </div>
      </div>
      <Space style={{ width: '100%' }} align="center" data-testid="history-player">
        <Button
          type="primary"
          shape="circle"
          disabled={!data?.track.t.length}
          loading={loading}
          icon={playing ? <PauseOutlined /> : <CaretRightOutlined />}
          onClick={() => {
            if (time !== null && time >= t1) setTime(t0);
            setPlaying((p) => !p);
          }}
          data-testid="history-play"
          aria-label={playing ? t('map.pause') : t('map.play')}
        />
        <Select
          size="small"
          value={speed}
          onChange={setSpeed}
          style={{ width: 72 }}
          options={SPEEDS.map((s) => ({ value: s, label: `${s}×` }))}
          data-testid="history-speed"
        />
        <span style={{ width: 90, fontVariantNumeric: 'tabular-nums' }} data-testid="history-time" data-time={time ?? ''}>
          {time !== null ? fmt(time) : '--'}
        </span>
        <div style={{ width: 'min(70vw, 900px)' }}>
          <Slider
            min={t0}
            max={Math.max(t1, t0 + 1)}
            value={time ?? t0}
            disabled={!data?.track.t.length}
            onChange={(v) => setTime(v as number)}
            tooltip={{ formatter: (v) => (v ? fmt(v) : '') }}
            marks={Object.fromEntries(
              data?.stops.map((s) => [
                s.start,
                {
                  label: (
                    <Tag color="warning" style={{ fontSize: 10, padding: '0 2px' }}>
                      P
                    </Tag>
                  ),
                },
              ]) ?? [],
            )}
          />
        </div>
      </Space>
    </div>
  );
}

export default function HistoryPage() {
  return <HistoryScreen admin={false} provider={PROVIDER_A} />;
}
