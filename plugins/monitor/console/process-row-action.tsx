import type { FC } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { CheckCircleOutlined } from '@ant-design/icons';
import type { RowActionProps } from '@rti/console/plugin-api';
import { kindOfResource, UNSOLVED } from './alert-kinds';
import { useProcessAlert } from './use-process-alert';

/** "Process" in an alert list's row, only while the alert is unsolved. */
const ProcessRowAction: FC<RowActionProps> = ({ resource, record, onChanged }) => {
  const { t } = useTranslation();
  const kind = kindOfResource(resource.name);
  const { process, busy } = useProcessAlert(kind, resource.name, onChanged);
  if (!kind || Number(record.status) !== UNSOLVED || record.id === undefined) return null;
  return (
    <Button
      type="link"
      size="small"
      danger
      icon={<CheckCircleOutlined />}
      loading={busy}
      data-testid="alert-row-process"
      onClick={() => process(record.id as number, String(record[kind.snField] ?? ''))}
    >
      {t('monitor.process')}
    </Button>
  );
};

export default ProcessRowAction;
