/**
 * /info/mainten?token=…: what a worker sees after scanning the code fixed to a rack — the asset,
 * its maintenance state and repair history, read-only, without signing in (public call
 * /info/mainten). Signed in, the worker may apply for a repair of it right here (the
 * shop-floor form: what broke, the type; the create call checks the user's own permission).
 * Laid out for a phone: labels above values, tables scroll inside themselves.
 */
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Alert, Button, Card, Descriptions, Form, Grid, Input, Result, Select, Spin, Table, Tag, Typography } from 'antd';
import { CarrierAssetStatusEnum, CarrierStatusEnum, MaintenanceStatusEnum, MaintenanceTypeEnum } from '@rti/metadata/browser';
import { formatDateTime, request, session } from '@rti/console/plugin-api';

interface InfoPage {
  asset: Record<string, any>;
  openRecord: { recordNo: string; status: number } | null;
  history: Array<Record<string, any>>;
  historyTotal: number;
}

const keyOf = (e: Record<string, number>, v: unknown) => Object.entries(e).find(([, n]) => n === Number(v))?.[0];
const STATUS_COLOR: Record<number, string> = { 1: 'default', 2: 'processing', 3: 'success', 4: 'cyan', 5: 'error' };

export default function InfoMaintenPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [page, setPage] = useState<InfoPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [applied, setApplied] = useState<string | null>(null);
  const [applyError, setApplyError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm();
  const phone = !Grid.useBreakpoint().sm;
  const signedIn = Boolean(session.token());

  const load = useCallback(() => {
    if (!token) return setError(t('maintenance.info.noToken'));
    request<InfoPage>('/info/mainten', { token })
      .then(setPage)
      .catch((e: Error) => setError(e.message || t('maintenance.info.notFound')));
  }, [token, t]);
  useEffect(load, [load]);

  const label = (name: string, e: Record<string, number>, v: unknown) => {
    const k = keyOf(e, v);
    return k ? t(`enums.${name}.${k}`) : '-';
  };
  const time = (v: unknown) => (v ? formatDateTime(v as string, 'datetime') : '-');

  const apply = async (values: { breakdownDescription: string; type: number }) => {
    if (!page) return;
    setBusy(true);
    setApplyError(null);
    try {
      const made = await request<{ recordNo: string }>('/carrier-asset-maintenance-record/create', { carrierId: page.asset.carrierId, ...values });
      setApplied(made.recordNo);
      form.resetFields();
      load();
    } catch (e) {
      setApplyError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  if (error) return <Result status="warning" title={t('maintenance.info.notFound')} subTitle={error} />;
  if (!page) return <Spin style={{ display: 'block', margin: 48 }} />;
  const a = page.asset;
  return (
    <div data-testid="info-mainten" style={{ maxWidth: '100%', minWidth: 0, overflowWrap: 'anywhere' }}>
      <Typography.Title level={phone ? 4 : 3}>
        {a.sn} <Tag>{label('carrierAssetStatus', CarrierAssetStatusEnum, a.status)}</Tag>
      </Typography.Title>
      <Card size="small">
        <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered layout={phone ? 'vertical' : 'horizontal'}>
          <Descriptions.Item label={t('fields.name')}>{a.name ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.carrierCode')}>{a.carrierCode ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.status')}>{label('carrierStatus', CarrierStatusEnum, a.carrierStatus)}</Descriptions.Item>
          <Descriptions.Item label={t('fields.maintenanceStatus')}>
            {a.maintenanceStatus ? label('maintenanceStatus', MaintenanceStatusEnum, a.maintenanceStatus) : '-'}
          </Descriptions.Item>
          <Descriptions.Item label={t('fields.maintenanceCount')}>{a.maintenanceCount}</Descriptions.Item>
          <Descriptions.Item label={t('fields.lastMaintenanceDate')}>{a.lastMaintenanceDate ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.nextMaintenanceDate')}>{a.nextMaintenanceDate ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.assetArea')}>{a.area ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.placement')}>{a.placement ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('fields.responsible')}>{a.responsible ?? '-'}</Descriptions.Item>
        </Descriptions>
      </Card>
      {/* outside the form: the form goes once the application is open, the confirmation stays */}
      {applied && (
        <Alert
          style={{ marginTop: 12 }}
          type="success"
          showIcon
          message={t('maintenance.info.applied', { recordNo: applied })}
          data-testid="info-mainten-applied"
        />
      )}
      {page.openRecord && (
        <Alert
          style={{ marginTop: 12 }}
          type="info"
          showIcon
          message={t('maintenance.info.underRepair', {
            recordNo: page.openRecord.recordNo,
            status: label('maintenanceStatus', MaintenanceStatusEnum, page.openRecord.status),
          })}
        />
      )}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('maintenance.info.history', { count: page.historyTotal })}
      </Typography.Title>
      <Table
        size="small"
        rowKey={(r) => String(r.recordNo)}
        dataSource={page.history}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: t('fields.recordNo'), dataIndex: 'recordNo' },
          {
            title: t('fields.status'),
            dataIndex: 'status',
            render: (v) => <Tag color={STATUS_COLOR[Number(v)]}>{label('maintenanceStatus', MaintenanceStatusEnum, v)}</Tag>,
          },
          { title: t('fields.maintenanceType'), dataIndex: 'type', render: (v) => label('maintenanceType', MaintenanceTypeEnum, v), responsive: ['sm'] },
          { title: t('fields.applyTime'), dataIndex: 'applyTime', render: time },
          { title: t('fields.breakdownDescription'), dataIndex: 'breakdownDescription', responsive: ['sm'] },
          { title: t('fields.endTime'), dataIndex: 'endTime', render: time, responsive: ['sm'] },
        ]}
      />
      {signedIn && !page.openRecord && (
        <Card size="small" style={{ marginTop: 16 }} title={t('maintenance.info.applyTitle')} data-testid="info-mainten-apply">
          {applyError && <Alert type="error" showIcon style={{ marginBottom: 8 }} message={applyError} />}
          <Form form={form} layout="vertical" onFinish={(v) => void apply(v)} initialValues={{ type: MaintenanceTypeEnum.repair }}>
            <Form.Item name="type" label={t('fields.maintenanceType')}>
              <Select options={Object.entries(MaintenanceTypeEnum).map(([k, v]) => ({ value: v, label: t(`enums.maintenanceType.${k}`) }))} />
            </Form.Item>
            <Form.Item
              name="breakdownDescription"
              label={t('fields.breakdownDescription')}
              rules={[{ required: true, message: t('maintenance.info.describe') }, { max: 1000 }]}
            >
              <Input.TextArea rows={3} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={busy} block={phone} data-testid="info-mainten-apply-submit">
              {t('maintenance.info.apply')}
            </Button>
          </Form>
        </Card>
      )}
    </div>
  );
}
