import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, App, Button, Card, Col, DatePicker, Descriptions, Empty, Progress, Row, Space, Spin, Statistic, Table, Typography } from 'antd';
import { DownloadOutlined, FilePdfOutlined, ReloadOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { Guarded, request, formatDateTime } from '@rti/console/plugin-api';
import { EChart } from '@rti/console/echart';
import { batteryOption, cpuOption, dbOption, gaugeOption, memOption, occupancyOption } from './inspection-charts';
import { formatBytes, useInspection, type GatewayKind } from './inspection-data';

async function download(path: string, body: object, name: string): Promise<void> {
  const blob = await request<Blob>(path, body, { blob: true, timeoutMs: 120_000 });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const pctColour = (p: number) => (p >= 90 ? '#ff4d4f' : p >= 75 ? '#faad14' : '#52c41a');

/** /system-inspection and /monitor/system-inspection: server, database, gateways, beacons, suggestions, exports. */
export default function InspectionPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { data, error, loading, reload } = useInspection();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(7, 'day'), dayjs()]);
  const [busy, setBusy] = useState<string>();
  const L = (k: string) => t(k);

  const run = async (key: string, fn: () => Promise<void>) => {
    setBusy(key);
    try {
      await fn();
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(undefined);
    }
  };
  const stamp = dayjs().format('YYYYMMDD-HHmm');

  const gatewayCard = (title: string, g: GatewayKind, key: string) => (
    <Card size="small" title={title} data-testid={`gateways:${key}`}>
      <Row gutter={12} align="middle">
        <Col span={8}>
          <Progress type="dashboard" percent={g.onlineRate} size={110} strokeColor={pctColour(100 - g.onlineRate)} format={(p) => `${p}%`} />
        </Col>
        <Col span={16}>
          <Row gutter={8}>
            <Col span={6}>
              <Statistic title={t('systemInspection.total')} value={g.total} />
            </Col>
            <Col span={6}>
              <Statistic title={t('systemInspection.online')} value={g.online} valueStyle={{ color: '#52c41a' }} />
            </Col>
            <Col span={6}>
              <Statistic title={t('systemInspection.offline')} value={g.offline} valueStyle={{ color: '#ff4d4f' }} />
            </Col>
            <Col span={6}>
              <Statistic title={t('systemInspection.other')} value={g.ineffective + g.unknown} valueStyle={{ color: '#8c8c8c' }} />
            </Col>
          </Row>
        </Col>
      </Row>
      <Table
        size="small"
        rowKey="id"
        style={{ marginTop: 8 }}
        pagination={{ pageSize: 5, size: 'small', hideOnSinglePage: true }}
        dataSource={g.offlineList}
        locale={{ emptyText: t('systemInspection.allOnline') }}
        columns={[
          { title: 'SN', dataIndex: 'sn' },
          { title: t('systemInspection.name'), dataIndex: 'name' },
          { title: t('systemInspection.warehouse'), dataIndex: 'warehouse', render: (v) => v ?? '-' },
          { title: t('systemInspection.lastSeen'), dataIndex: 'lastReportTime', render: (v) => formatDateTime(v, 'minute', t('systemInspection.never')) },
        ]}
      />
    </Card>
  );

  return (
    <div data-testid="system-inspection">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
        <Typography.Text type="secondary">{data ? t('systemInspection.updated', { time: formatDateTime(data.loadedAt, 'time') }) : ''}</Typography.Text>
        <Space wrap>
          <Button icon={<ReloadOutlined />} loading={loading} onClick={() => void reload()}>
            {t('systemInspection.refresh')}
          </Button>
          <Guarded call="/system-inspection/report/export">
            <Button
              type="primary"
              icon={<FilePdfOutlined />}
              loading={busy === 'pdf'}
              data-testid="inspection-pdf"
              onClick={() => void run('pdf', () => download('/system-inspection/report/export', {}, `system-inspection-${stamp}.pdf`))}
            >
              {t('systemInspection.exportPdf')}
            </Button>
          </Guarded>
          <Guarded call="/system-inspection/system-log/export">
            <DatePicker.RangePicker value={range} onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])} allowClear={false} />
            <Button
              icon={<DownloadOutlined />}
              loading={busy === 'log'}
              data-testid="inspection-log"
              onClick={() =>
                void run('log', () =>
                  download(
                    '/system-inspection/system-log/export',
                    { time: [range[0].startOf('day').valueOf(), range[1].endOf('day').valueOf()] },
                    `system-log-${stamp}.xlsx`,
                  ),
                )
              }
            >
              {t('systemInspection.exportLog')}
            </Button>
          </Guarded>
        </Space>
      </Space>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Spin spinning={!data && loading}>
        {data && (
          <Row gutter={[12, 12]}>
            {data.suggestions.length > 0 && (
              <Col span={24} data-testid="inspection-suggestions">
                <Space direction="vertical" style={{ width: '100%' }}>
                  {data.suggestions.map((s) => (
                    <Alert
                      key={`${s.type}:${s.key}:${s.params.path ?? ''}`}
                      type={s.level}
                      showIcon
                      message={t(`systemInspection.suggestType.${s.type}`)}
                      description={t(s.key, s.params)}
                    />
                  ))}
                </Space>
              </Col>
            )}
            {data.suggestions.length === 0 && (
              <Col span={24}>
                <Alert type="success" showIcon message={t('systemInspection.noSuggestions')} />
              </Col>
            )}
            <Col xs={24} xl={12}>
              <Card
                size="small"
                title={t('systemInspection.cpu')}
                extra={<Typography.Text type="secondary">{`${data.cpu.cores} × ${data.cpu.model}`}</Typography.Text>}
              >
                <Row>
                  <Col span={9}>
                    <EChart option={gaugeOption(data.cpu.samples.at(-1)?.cpu ?? 0, t('systemInspection.cpuHost'))} height={200} testId="chart:cpu-gauge" />
                  </Col>
                  <Col span={15}>
                    <EChart option={cpuOption(data.cpu, L)} height={200} testId="chart:cpu" />
                  </Col>
                </Row>
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card
                size="small"
                title={t('systemInspection.memory')}
                extra={
                  <Typography.Text type="secondary">{`${formatBytes(data.mem.used)} / ${formatBytes(data.mem.total)} · ${t('systemInspection.memProcess')} ${formatBytes(data.mem.processRss)}`}</Typography.Text>
                }
              >
                <Row>
                  <Col span={9}>
                    <EChart option={gaugeOption(data.mem.usage, t('systemInspection.memUsed'))} height={200} testId="chart:mem-gauge" />
                  </Col>
                  <Col span={15}>
                    <EChart option={memOption(data.mem, L)} height={200} testId="chart:mem" />
                  </Col>
                </Row>
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card size="small" title={t('systemInspection.disk')} data-testid="inspection-disks">
                <Row gutter={12}>
                  <Col span={12}>
                    {data.disks.map((d) => (
                      <div key={d.path} style={{ marginBottom: 12 }}>
                        <Typography.Text strong>{d.path}</Typography.Text>
                        <Progress percent={d.usage} strokeColor={pctColour(d.usage)} />
                        <Typography.Text type="secondary">
                          {t('systemInspection.diskFree', { free: formatBytes(d.free), total: formatBytes(d.total) })}
                        </Typography.Text>
                      </div>
                    ))}
                  </Col>
                  <Col span={12}>
                    <EChart option={occupancyOption(data.occupancy, L)} height={220} testId="chart:occupancy" />
                  </Col>
                </Row>
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card size="small" title={t('systemInspection.database')} data-testid="inspection-database">
                <Descriptions size="small" column={4} layout="vertical">
                  <Descriptions.Item label={t('systemInspection.engine')}>{data.database.dialect}</Descriptions.Item>
                  <Descriptions.Item label={t('systemInspection.dbSize')}>{formatBytes(data.database.size)}</Descriptions.Item>
                  <Descriptions.Item label={t('systemInspection.tables')}>{data.database.tables}</Descriptions.Item>
                  <Descriptions.Item label={t('systemInspection.telemetry')}>{formatBytes(data.database.telemetrySize)}</Descriptions.Item>
                </Descriptions>
                {data.dbChart.values.length ? <EChart option={dbOption(data.dbChart)} height={200} testId="chart:database" /> : <Empty />}
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              {gatewayCard(t('systemInspection.slaveGateways'), data.gateways.slave, 'slave')}
            </Col>
            <Col xs={24} xl={12}>
              {gatewayCard(t('systemInspection.masterGateways'), data.gateways.master, 'master')}
            </Col>
            <Col xs={24} xl={12}>
              <Card
                size="small"
                title={t('systemInspection.battery')}
                extra={<Typography.Text type="secondary">{t('systemInspection.beacons', { count: data.battery.total })}</Typography.Text>}
              >
                <EChart option={batteryOption(data.battery, L)} height={220} testId="chart:battery" />
              </Card>
            </Col>
          </Row>
        )}
      </Spin>
    </div>
  );
}
