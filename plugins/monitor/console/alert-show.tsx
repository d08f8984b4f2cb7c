import type { FC } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useOne } from '@refinedev/core';
import { Alert, Button, Space, Tag } from 'antd';
import { CheckCircleOutlined } from '@ant-design/icons';
import type { ResourceDef } from '@rti/metadata/browser';
import { MetaShow } from '@rti/console/plugin-meta';
import { routeId } from '@rti/console/plugin-meta';
import { useShell, formatDateTime } from '@rti/console/plugin-api';
import { kindOfResource, processCode, UNSOLVED } from './alert-kinds';
import { useProcessAlert } from './use-process-alert';

/**
 * Detail of an alert: the generated detail screen plus the status banner in SPEC colours
 * (unsolved red, solved green) and "Process" with a confirmation and an optional remark.
 */
const AlertShow: FC<{ resource: ResourceDef }> = ({ resource }) => {
  const { t } = useTranslation();
  const { access } = useShell();
  const kind = kindOfResource(resource.name);
  const id = routeId(useParams().id);
  const { query } = useOne({ resource: resource.name, id });
  const row = query.data?.data as Record<string, unknown> | undefined;
  const { process, busy } = useProcessAlert(kind, resource.name);
  const canProcess = Boolean(kind && access.has(processCode(kind)));

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
                ? t('monitor.processedBy', { by: String(row.processedBy ?? '-'), at: formatDateTime(row.processedAt as string | null, 'datetime', '-') })
                : t('monitor.unsolvedHint')}
            </Space>
          }
          action={
            !solved && canProcess ? (
              <Button
                type="primary"
                danger
                icon={<CheckCircleOutlined />}
                loading={busy}
                onClick={() => id !== undefined && process(id, String(row?.[kind!.snField] ?? ''))}
                data-testid="alert-process"
              >
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
