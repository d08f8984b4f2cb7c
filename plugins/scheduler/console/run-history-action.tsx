import { useEffect, useState, type FC } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Button, Modal, Table, Tag, Tooltip } from 'antd';
import { HistoryOutlined } from '@ant-design/icons';
import { request, type RowActionProps, formatDateTime } from '@rti/console/plugin-api';
import { STATUS_COLOR, type TaskRun } from './run-types';

const PAGE_SIZE = 10;
const time = (v: string | null) => formatDateTime(v);

/** "Runs" in a task-config row: the row's run history, newest first, paged on the server. */
const RunHistoryAction: FC<RowActionProps> = ({ record }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ list: TaskRun[]; total: number }>({ list: [], total: 0 });
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (!open) return;
    let live = true;
    setLoading(true);
    request<{ list: TaskRun[]; total: number }>('/task-config/run/list', { taskId: record.id, page, limit: PAGE_SIZE })
      .then((d) => live && setData(d))
      .catch((err: Error) => live && void message.error(err.message))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [open, page, record.id, message]);

  if (record.id === undefined) return null;
  return (
    <>
      <Button type="link" size="small" icon={<HistoryOutlined />} onClick={() => setOpen(true)} data-testid="task-run-history">
        {t('scheduler.runs')}
      </Button>
      <Modal open={open} onCancel={() => setOpen(false)} footer={null} width={900} title={t('scheduler.runsTitle')} destroyOnHidden>
        <Table<TaskRun>
          rowKey="id"
          size="small"
          loading={loading}
          dataSource={data.list}
          pagination={{ current: page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage, showSizeChanger: false }}
          columns={[
            { title: t('scheduler.startedAt'), dataIndex: 'startedAt', width: 170, render: time },
            { title: t('scheduler.finishedAt'), dataIndex: 'finishedAt', width: 170, render: time },
            { title: t('scheduler.via'), dataIndex: 'via', width: 90, render: (v: string) => t(`scheduler.viaKind.${v}`) },
            {
              title: t('scheduler.statusLabel'),
              dataIndex: 'status',
              width: 100,
              render: (v: TaskRun['status']) => <Tag color={STATUS_COLOR[v]}>{t(`scheduler.status.${v}`)}</Tag>,
            },
            { title: t('scheduler.recipients'), dataIndex: 'recipients', width: 180, ellipsis: true, render: (v: string[]) => v.join(', ') },
            {
              title: t('scheduler.result'),
              key: 'result',
              ellipsis: true,
              render: (_: unknown, r: TaskRun) => {
                const text = r.error ?? [r.attachment, r.rowCount !== null ? t('scheduler.rowCount', { count: r.rowCount }) : null].filter(Boolean).join(' · ');
                return <Tooltip title={r.messageId ?? r.outboxFile ?? undefined}>{text}</Tooltip>;
              },
            },
          ]}
        />
      </Modal>
    </>
  );
};

export default RunHistoryAction;
