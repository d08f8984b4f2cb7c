/**
 * /vehicle/monitor (standalone, full screen): every vehicle on the map coloured by motion,
 * with the fleet's counts. Trackers' live events (the telemetry event stream) move and
 * recolour markers in place — moving when a fix moved at least MOVE_M at 5 km/h or more,
 * stopped otherwise, offline when the tracker reports so; a full reload every minute catches
 * trackers that fell silent. Single markers carry the vehicle's code once few enough are in view.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Card, Space, Spin, Tag } from 'antd';
import { AimOutlined, CloseOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { Guarded, request, formatDateTime } from '@rti/console/plugin-api';
import { useLivePoints } from '@rti/plugin-map/console/use-live-points';
import { CITIES, DEFAULT_ZOOM, rgbCss } from '@rti/plugin-map/console/map-settings';
import type { PointSet, ViewTarget } from '@rti/plugin-map/console/map-types';
import { MapView } from '@rti/plugin-map/console/map-view';
import { useProvider } from '@rti/plugin-map/console/use-provider';
import { haversine } from '@rti/common';
import { DeviceStatusEnum } from '@rti/metadata/browser';
import type { VehiclePositionsAnswer } from '../shared/vehicle-answer';
import { MOTION_CODE, MOVING_KMH } from '../shared/vehicle-status';
import { boundsOf, fmtNum, fmtTime } from './format';
import { MOTIONS, MOTION_BY_CODE, MOTION_RGB, motionRgb } from './motion';

const RELOAD_MS = 60_000;
const MOVE_M = 30;
const DEVICE_OFFLINE = DeviceStatusEnum.offline;

export default function VehicleMonitorPage() {
  const { t } = useTranslation();
  const provider = useProvider();
  const [answer, setAnswer] = useState<VehiclePositionsAnswer>();
  const [points, setPoints] = useState<PointSet>();
  const [error, setError] = useState<string>();
  const [target, setTarget] = useState<ViewTarget>({ lng: CITIES[0].lng, lat: CITIES[0].lat, zoom: DEFAULT_ZOOM, seq: 0 });
  const [picked, setPicked] = useState<number | null>(null);
  const [now, setNow] = useState(() => dayjs());
  const byGps = useRef(new Map<number, number>());
  const seenAt = useRef<number[]>([]);
  const fitted = useRef(false);

  const load = useCallback(async () => {
    try {
      const a = await request<VehiclePositionsAnswer>('/jimi/gps', {}, { timeoutMs: 60_000 });
      const v = a.vehicles;
      byGps.current = new Map(v.gpsId.map((g, i) => [g ?? -1, i]));
      seenAt.current = v.lastSeen.map((s) => (s ? Date.parse(s) : 0));
      setAnswer(a);
      setPoints({ id: [...v.id], kind: v.id.map(() => 1), lng: [...v.lng], lat: [...v.lat], st: [...v.motion], version: Date.now() });
      setError(undefined);
      if (!fitted.current) {
        fitted.current = true;
        const b = boundsOf(v.lng, v.lat);
        if (b) setTarget((x) => ({ ...x, bounds: b, seq: x.seq + 1 }));
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }, []);

  useEffect(() => {
    void load();
    const reload = setInterval(() => void load(), RELOAD_MS);
    const clock = setInterval(() => setNow(dayjs()), 1000);
    return () => (clearInterval(reload), clearInterval(clock));
  }, [load]);

  // live moves, applied in place and published at most once a second
  useLivePoints(points, setPoints, answer, (type, d, p) => {
    if (type !== 'device' || d.kind !== 'gps') return false;
    const i = byGps.current.get(d.id);
    if (i === undefined) return false;
    const at = typeof d.lastReportTime === 'number' ? d.lastReportTime : Date.now();
    let st = p.st[i];
    if (d.status === DEVICE_OFFLINE) st = MOTION_CODE.offline;
    else if (typeof d.longitude === 'number' && typeof d.latitude === 'number') {
      const m = haversine(p.lng[i], p.lat[i], d.longitude, d.latitude);
      const hours = Math.max(1, at - seenAt.current[i]) / 3_600_000;
      st = m >= MOVE_M && m / 1000 / hours >= MOVING_KMH ? MOTION_CODE.moving : MOTION_CODE.stopped;
      p.lng[i] = d.longitude;
      p.lat[i] = d.latitude;
      seenAt.current[i] = at;
    }
    p.st[i] = st;
    return true;
  });

  const counts = useMemo(() => {
    const c = { moving: 0, stopped: 0, offline: 0 };
    if (points) for (const s of points.st) c[MOTION_BY_CODE[s] ?? 'offline']++;
    if (answer) c.offline += answer.unplaced;
    return c;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [points, points?.version, answer]);

  const v = answer?.vehicles;
  // each vehicle's code beside its marker (the points are the answer's vehicles, in order)
  const labelOf = useCallback((i: number) => answer?.vehicles.sn[i] ?? '', [answer]);
  const fitAll = () => {
    const b = points && boundsOf(points.lng, points.lat);
    if (b) setTarget((x) => ({ ...x, bounds: b, seq: x.seq + 1 }));
  };

  return (
    <div data-testid="vehicle-monitor" style={{ position: 'fixed', inset: 0, background: '#0b1a33', display: 'flex', flexDirection: 'column' }}>
      <header style={{ display: 'flex', alignItems: 'center', gap: 16, padding: '8px 16px', color: '#e6f4ff' }}>
        <h1 style={{ margin: 0, fontSize: 22, letterSpacing: 2, color: '#e6f4ff' }}>{t('menu.vehicleMonitor')}</h1>
        <Space size={12} style={{ marginLeft: 'auto' }}>
          {MOTIONS.map((m) => (
            <span key={m} data-testid={`monitor-count:${m}`} data-count={counts[m]} style={{ fontSize: 16 }}>
              <span style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 6, background: rgbCss(MOTION_RGB[m]), marginRight: 6 }} />
              {t(`vehicle.motion.${m}`)} <b style={{ fontSize: 20, fontVariantNumeric: 'tabular-nums' }}>{counts[m]}</b>
            </span>
          ))}
          <Button size="small" icon={<AimOutlined />} onClick={fitAll}>
            {t('vehicle.fitAll')}
          </Button>
          <span style={{ fontVariantNumeric: 'tabular-nums', opacity: 0.8 }}>{formatDateTime(now)}</span>
        </Space>
      </header>
      {error && <div style={{ color: '#ff7875', padding: '0 16px 8px' }}>{error}</div>}
      <div style={{ position: 'relative', flex: 1 }}>
        {points ? (
          <MapView
            provider={provider}
            target={target}
            points={points}
            statusColor={motionRgb}
            onPick={setPicked}
            pointLabel={labelOf}
            onFirstDraw={() => ((window as unknown as { __monitorDrawn?: boolean }).__monitorDrawn = true)}
          />
        ) : (
          <Spin style={{ position: 'absolute', top: '45%', left: '50%' }} />
        )}
        {picked !== null && v && points && (
          <Card
            size="small"
            style={{ position: 'absolute', top: 12, right: 12, width: 300, zIndex: 5 }}
            title={v.sn[picked]}
            extra={<Button type="text" size="small" icon={<CloseOutlined />} onClick={() => setPicked(null)} />}
            data-testid="monitor-card"
          >
            <p>
              <Tag color={rgbCss(motionRgb(points.st[picked]))}>{t(`vehicle.motion.${MOTION_BY_CODE[points.st[picked]]}`)}</Tag> {fmtNum(v.speed[picked])} km/h
            </p>
            <p>
              {t('vehicle.col.lastSeen')}: {fmtTime(seenAt.current[picked] || v.lastSeen[picked])}
            </p>
            <Guarded open="/vehicle/track">
              <Button type="link" style={{ padding: 0 }} onClick={() => window.open(`/vehicle/track?carrierId=${v.id[picked]}`, '_blank')}>
                {t('vehicle.track')}
              </Button>
            </Guarded>
          </Card>
        )}
      </div>
    </div>
  );
}
