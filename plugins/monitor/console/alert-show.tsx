import { useState, type FC } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useInvalidate, useOne } from '@refinedev/core';
import { Alert, App, Button, Input, Space, Tag } from 'antd';
import { CheckCircleOutlined } from '@ant-design/icons';
import type { ResourceDef } from '@rti/metadata/browser';
import { MetaShow } from '../../../console/src/meta';
import { routeId } from '../../../console/src/meta/lib/resource-calls';
import { request } from '../../../console/src/plugin-api';
import { useShell } from '../../../console/src/providers/shell-context';
import { kindOfResource, processCode, UNSOLVED } from './alert-kinds';
import { alertFeed } from './alert-feed';

/**
 * Detail of an alert: the generated detail screen plus the status banner in SPEC colours
 * (unsolved red, solved green) and "Process" with a confirmation and an optional remark.
 */
const AlertShow: FC<{ resource: ResourceDef }> = ({ resource }) => {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const { access } = useShell();
  const invalidate = useInvalidate();
  const kind = kindOfResource(resource.name);
  const id = routeId(useParams().id);
  const { query } = useOne({ resource: resource.name, id });
  const row = query.data?.data as Record<string, unknown> | undefined;
  const [busy, setBusy] = useState(false);
  const canProcess = Boolean(kind && access.has(processCode(kind)));

  const process = () => {
    let remark = '';
    modal.confirm({
      title: t('monitor.processTitle'),
      content: (
        <Space direction="vertical" style={{ width: '100%' }}>
          <span>{t('monitor.processConfirm', { sn: String(row?.[kind!.snField] ?? '') })}</span>
          <Input.TextArea maxLength={200} showCount rows={3} placeholder={t('monitor.remark')} onChange={(e) => (remark = e.target.value)} data-testid="alert-process-remark" />
        </Space>
      ),
      okText: t('monitor.process'),
      okButtonProps: { 'data-testid': 'alert-process-confirm' } as never,
      onOk: async () => {
        setBusy(true);
        try {
          await request(`${kind!.api}/process`, { id, ...(remark.trim() ? { remark: remark.trim() } : {}) });
          void message.success(t('monitor.processed'));
          await invalidate({ resource: resource.name, invalidates: ['list', 'detail'], id });
          void alertFeed.refresh().catch(() => undefined);
        } finally {
          setBusy(false);
        }
      },
    });
  };

  const solved = row && Number(row.status) !== UNSOLVED;
  return (
    <>
      {row && (
        <Alert
          style={{ marginBottom: 12 }}
          type={solved ? 'success' : 'error'}
          showIcon
          data-testid="alert-status-banner"
          data-status={solved ? 'solved' : 'unsolved'}
          message={
            <Space wrap>
              <Tag color={solved ? 'success' : 'error'}>{t(solved ? 'enums.alertStatus.solved' : 'enums.alertStatus.unsolved')}</Tag>
              {solved
                ? t('monitor.processedBy', { by: String(row.processedBy ?? '-'), at: row.processedAt ? new Date(String(row.processedAt)).toLocaleString() : '-' })
                : t('monitor.unsolvedHint')}
            </Space>
          }
          action={
            !solved && canProcess ? (
              <Button type="primary" danger icon={<CheckCircleOutlined />} loading={busy} onClick={process} data-testid="alert-process">
                {t('monitor.process')}
              </Button>
            ) : undefined
          }
        />
      )}
      <MetaShow resource={resource} />
    </>
  );
};

export default AlertShow;
