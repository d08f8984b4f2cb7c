import { useState, type FC } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Button } from 'antd';
import { PlayCircleOutlined } from '@ant-design/icons';
import { request, type RowActionProps } from '@rti/console/plugin-api';
import type { TaskRun } from './run-types';

/** "Run now" in a task-config row: runs the task at once and says how the run ended. */
const RunNowAction: FC<RowActionProps> = ({ record, onChanged }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  if (record.id === undefined) return null;

  const run = async () => {
    setBusy(true);
    try {
      // a report can take a while: the default request timeout is for list calls
      const r = await request<TaskRun>('/task-config/run', { id: record.id }, { timeoutMs: 120_000 });
      const text = t(`scheduler.status.${r.status}`) + (r.error ? `: ${r.error}` : '');
      if (r.status === 'succeeded') void message.success(text);
      else if (r.status === 'failed') void message.error(text);
      else void message.warning(text);
      onChanged();
    } catch (err) {
      void message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button
      type="link"
      size="small"
      icon={<PlayCircleOutlined />}
      loading={busy}
      onClick={() => void run() /* run() reports its own failure */}
      data-testid="task-run-now"
    >
      {t('scheduler.runNow')}
    </Button>
  );
};

export default RunNowAction;
