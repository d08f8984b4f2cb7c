/**
 * The repairs of a carrier asset, below its detail (zone `carrier-asset.show.after`): its
 * carrier's maintenance records, newest first (`/carrier-asset-maintenance-record/bycarrier`),
 * each opening its record.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Card, Table, Tag } from 'antd';
import { MaintenanceStatusEnum, MaintenanceTypeEnum } from '@rti/metadata/browser';
import { formatDateTime, request, useNavigate, type ZoneProps } from '@rti/console/plugin-api';

interface Page {
  list: Array<Record<string, any>>;
  total: number;
}

const keyOf = (e: Record<string, number>, v: unknown) => Object.entries(e).find(([, n]) => n === Number(v))?.[0];
const STATUS_COLOR: Record<number, string> = { 1: 'default', 2: 'processing', 3: 'success', 4: 'cyan', 5: 'error' };

export default function AssetHistory({ record }: ZoneProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [page, setPage] = useState<Page | null>(null);
  const [n, setN] = useState(1);
  const carrierId = record.carrierId;
  useEffect(() => {
    if (!carrierId) return;
    request<Page>('/carrier-asset-maintenance-record/bycarrier', { carrierId, page: n, limit: 10 })
      .then(setPage)
      .catch(() => setPage({ list: [], total: 0 }));
  }, [carrierId, n]);
  if (!carrierId) return null;
  const label = (name: string, e: Record<string, number>, v: unknown) => {
    const k = keyOf(e, v);
    return k ? t(`enums.${name}.${k}`) : '-';
  };
  return (
    <Card size="small" title={t('maintenance.history.title', { count: page?.total ?? 0 })} style={{ marginTop: 16 }} data-testid="maintenance-asset-history">
      <Table
        size="small"
        loading={!page}
        rowKey={(r) => String(r.id)}
        dataSource={page?.list ?? []}
        pagination={{ current: n, pageSize: 10, total: page?.total ?? 0, onChange: setN, showSizeChanger: false }}
        scroll={{ x: 'max-content' }}
        onRow={(r) => ({
          onClick: () => navigate(`/maintenance/carrier-asset-maintenance-record/detail/${encodeURIComponent(String(r.id))}`),
          style: { cursor: 'pointer' },
        })}
        columns={[
          { title: t('fields.recordNo'), dataIndex: 'recordNo' },
          {
            title: t('fields.status'),
            dataIndex: 'status',
            render: (v) => <Tag color={STATUS_COLOR[Number(v)]}>{label('maintenanceStatus', MaintenanceStatusEnum, v)}</Tag>,
          },
          { title: t('fields.maintenanceType'), dataIndex: 'type', render: (v) => label('maintenanceType', MaintenanceTypeEnum, v) },
          { title: t('fields.applyTime'), dataIndex: 'applyTime', render: (v) => (v ? formatDateTime(v as string, 'datetime') : '-') },
          { title: t('fields.breakdownDescription'), dataIndex: 'breakdownDescription' },
          { title: t('fields.maintainer'), dataIndex: 'maintainer', render: (v) => v ?? '-' },
          { title: t('fields.auditor'), dataIndex: 'auditor', render: (v) => v ?? '-' },
        ]}
      />
    </Card>
  );
}
