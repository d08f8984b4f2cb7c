import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Card, Table, Tag, Typography } from 'antd';
import { errorLog, type LogEntry } from '../lib/error-log';
import { formatDateTime } from '../lib/date-format';

/** /log: every API and script error of this browser session. */
export default function LogPage() {
  const { t } = useTranslation();
  const entries = useSyncExternalStore(errorLog.subscribe, errorLog.entries);
  return (
    <Card
      size="small"
      title={t('log.title')}
      data-testid="log-page"
      extra={
        <Button size="small" onClick={() => errorLog.clear()} disabled={!entries.length} data-testid="log-clear">
          {t('log.clear')}
        </Button>
      }
    >
      <Table<LogEntry>
        size="small"
        rowKey="id"
        dataSource={entries}
        pagination={{ pageSize: 20, showSizeChanger: false }}
        expandable={{
          rowExpandable: (r) => Boolean(r.detail),
          expandedRowRender: (r) => (
            <Typography.Text code className="log-detail">
              {r.detail}
            </Typography.Text>
          ),
        }}
        columns={[
          { title: t('log.time'), dataIndex: 'time', width: 170, render: (v: number) => formatDateTime(v) },
          {
            title: t('log.kind'),
            dataIndex: 'kind',
            width: 90,
            render: (k: LogEntry['kind']) => <Tag color={k === 'api' ? 'orange' : 'red'}>{t(`log.kinds.${k}`)}</Tag>,
          },
          { title: t('log.user'), dataIndex: 'user', width: 120 },
          { title: t('log.page'), dataIndex: 'page', width: 220, ellipsis: true },
          { title: t('log.message'), dataIndex: 'message' },
        ]}
      />
    </Card>
  );
}
