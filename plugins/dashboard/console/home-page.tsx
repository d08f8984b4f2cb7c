import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Col, Row, Space, Spin, Statistic, Typography } from 'antd';
import { DesktopOutlined, ReloadOutlined } from '@ant-design/icons';
import { Guarded, OnboardingChecklist, formatDateTime } from '@rti/console/plugin-api';
import { useDashboard } from './dashboard-data';
import { kpis } from './kpis';
import { useDashboardPanels } from './panels';

const REFRESH_MS = 60_000;
const BIG_SCREEN = '/dashboard';

/** /dashboard-home: the landing page — headline figures and every dashboard panel, refreshed each minute. */
export default function DashboardHome() {
  const { t } = useTranslation();
  const { data, error, loading, reload } = useDashboard(REFRESH_MS);
  const panels = useDashboardPanels(data, false, 260);
  const k = data ? kpis(data) : undefined;
  const stats: Array<[string, number | undefined, string?]> = [
    ['dashboard.kpi.carriers', k?.carriers],
    ['dashboard.kpi.inWarehouse', k?.inWarehouse, '#52c41a'],
    ['dashboard.kpi.inTransit', k?.inTransit, '#1677ff'],
    ['dashboard.kpi.abnormal', k?.abnormal, '#ff4d4f'],
    ['dashboard.kpi.unsolvedAlerts', k?.unsolvedAlerts, '#ff4d4f'],
    ['dashboard.kpi.lowBattery', k?.lowBattery, '#faad14'],
  ];
  return (
    <div data-testid="dashboard-home">
      <OnboardingChecklist />
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
        <Typography.Text type="secondary">{data ? t('dashboard.updated', { time: formatDateTime(data.loadedAt, 'time') }) : ''}</Typography.Text>
        <Space>
          <Button icon={<ReloadOutlined />} loading={loading} onClick={() => void reload()} data-testid="dashboard-reload">
            {t('dashboard.refresh')}
          </Button>
          <Guarded open={BIG_SCREEN}>
            <Button
              type="primary"
              icon={<DesktopOutlined />}
              onClick={() => window.open(BIG_SCREEN, '_blank', 'noopener')}
              data-testid="dashboard-open-big-screen"
            >
              {t('dashboard.bigScreen')}
            </Button>
          </Guarded>
        </Space>
      </Space>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Spin spinning={!data && loading}>
        <Row gutter={[12, 12]}>
          {stats.map(([key, value, color]) => (
            <Col key={key} xs={12} sm={8} xl={4}>
              <Card size="small">
                <Statistic title={t(key)} value={value ?? '-'} valueStyle={color ? { color } : undefined} />
              </Card>
            </Col>
          ))}
          {panels.map((p) => (
            <Col key={p.key} xs={24} lg={12} xxl={8}>
              <Card size="small" title={p.title} extra={p.extra} data-testid={`panel:${p.key}`}>
                {p.body}
              </Card>
            </Col>
          ))}
        </Row>
      </Spin>
    </div>
  );
}
