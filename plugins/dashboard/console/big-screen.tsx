import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfigProvider, Spin, theme } from 'antd';
import dayjs from 'dayjs';
import { useDashboard } from './dashboard-data';
import { kpis } from './kpis';
import { useDashboardPanels } from './panels';
import { formatDateTime } from '@rti/console/plugin-api';

const REFRESH_MS = 30_000;

/** /dashboard: the big screen (standalone, new window): dark, full-viewport grid, refreshed every 30 s. */
export default function BigScreen() {
  const { t } = useTranslation();
  const { data, error } = useDashboard(REFRESH_MS);
  const [now, setNow] = useState(() => dayjs());
  useEffect(() => {
    const timer = setInterval(() => setNow(dayjs()), 1000);
    return () => clearInterval(timer);
  }, []);
  const panels = useDashboardPanels(data, true, 230);
  const k = data ? kpis(data) : undefined;
  const figures: Array<[string, number | undefined, string]> = [
    ['dashboard.kpi.carriers', k?.carriers, '#69b1ff'],
    ['dashboard.kpi.inWarehouse', k?.inWarehouse, '#95de64'],
    ['dashboard.kpi.inTransit', k?.inTransit, '#69b1ff'],
    ['dashboard.kpi.abnormal', k?.abnormal, '#ff7875'],
    ['dashboard.kpi.unsolvedAlerts', k?.unsolvedAlerts, '#ff7875'],
    ['dashboard.kpi.lowBattery', k?.lowBattery, '#ffc53d'],
  ];
  const box = { background: 'rgba(22, 58, 120, 0.35)', border: '1px solid rgba(105, 177, 255, 0.35)', borderRadius: 6, padding: '8px 12px' };
  return (
    <ConfigProvider theme={{ algorithm: theme.darkAlgorithm }}>
      <div
        data-testid="dashboard-big-screen"
        style={{
          minHeight: '100vh',
          background: 'radial-gradient(circle at 50% 0, #0d2a5c, #050b1a 70%)',
          color: '#d6e4ff',
          padding: 16,
          boxSizing: 'border-box',
        }}
      >
        <header style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', marginBottom: 12 }}>
          <span style={{ opacity: 0.8 }}>{data ? t('dashboard.updated', { time: formatDateTime(data.loadedAt, 'time') }) : ''}</span>
          <h1 style={{ margin: 0, fontSize: 28, letterSpacing: 4, color: '#e6f4ff' }}>{t('dashboard.bigScreenTitle')}</h1>
          <span style={{ fontVariantNumeric: 'tabular-nums', fontSize: 18 }}>{formatDateTime(now)}</span>
        </header>
        {error && <div style={{ ...box, color: '#ff7875', marginBottom: 12 }}>{error}</div>}
        <Spin spinning={!data}>
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(6, 1fr)', gap: 12, marginBottom: 12 }}>
            {figures.map(([key, value, color]) => (
              <div key={key} style={{ ...box, textAlign: 'center' }} data-testid={`kpi:${key}`}>
                <div style={{ opacity: 0.8 }}>{t(key)}</div>
                <div style={{ fontSize: 32, fontWeight: 600, color, fontVariantNumeric: 'tabular-nums' }}>{value ?? '-'}</div>
              </div>
            ))}
          </div>
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: 12 }}>
            {panels.map((p) => (
              <section key={p.key} style={box} data-testid={`panel:${p.key}`}>
                <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 4, fontWeight: 600, color: '#91caff' }}>
                  <span>{p.title}</span>
                  {p.extra}
                </div>
                {p.body}
              </section>
            ))}
          </div>
        </Spin>
      </div>
    </ConfigProvider>
  );
}
