/**
 * "Refresh from carriers" above the carrier asset list (zone `carrier-asset.list.toolbar`):
 * `/carrier-asset/refresh` makes the missing asset rows from the carriers of asset-managed carrier
 * codes and follows changed serials. While it runs (a million carriers take a while) the button
 * shows how far it got: the server counts every chunk it commits on the run's row and
 * `/carrier-asset/refresh/progress` reads it back from the database, so any server instance
 * answers. A refresh a colleague started shows the same way, and the button waits for it.
 * Cancel (after a confirmation) marks the run's row cancelled: the server running it stops
 * before its next chunk, what it wrote so far stays.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, App, Button, Popconfirm, Progress, Space, Typography } from 'antd';
import { SyncOutlined } from '@ant-design/icons';
import { request, type ListZoneProps } from '@rti/console/plugin-api';

interface Answer {
  carriers: number;
  created: number;
  updated: number;
  cancelled?: boolean;
}
interface RunProgress {
  runId: number;
  operator: string | null;
  carriers: number;
  done: number;
  percent: number;
  running: boolean;
  stale: boolean;
  /** cancelled: stopping, until the chunk being written commits */
  cancelled?: boolean;
}

/** how often the progress is asked while a refresh runs */
const POLL_MS = 700;

export default function RefreshAssets({ refresh }: ListZoneProps) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<RunProgress | null>(null);
  const [error, setError] = useState<string>();
  /** a colleague's refresh is running: watch it, refresh the list when it ends */
  const [watching, setWatching] = useState(false);
  /** asked to stop: the server stops before its next chunk */
  const [cancelling, setCancelling] = useState(false);
  const live = useRef(true);
  useEffect(
    () => () => {
      live.current = false;
    },
    [],
  );

  const ask = useCallback(async (): Promise<RunProgress | null> => {
    const p = await request<RunProgress | null>('/carrier-asset/refresh/progress', {}).catch(() => null);
    return p && p.running && !p.stale ? p : null;
  }, []);

  // on opening: is a refresh running already?
  useEffect(() => {
    void ask().then((p) => {
      if (!live.current || !p) return;
      setProgress(p);
      setWatching(true);
    });
  }, [ask]);

  // while ours or a colleague's runs: its progress from the server
  useEffect(() => {
    if (!busy && !watching) return;
    const timer = setInterval(() => {
      void ask().then((p) => {
        if (!live.current) return;
        if (p) setProgress(p);
        else if (watching && !busy) {
          setWatching(false);
          setCancelling(false);
          setProgress(null);
          refresh();
        }
      });
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [busy, watching, ask, refresh]);

  const run = async () => {
    setBusy(true);
    setError(undefined);
    setProgress(null);
    try {
      const a = await request<Answer>('/carrier-asset/refresh', {});
      if (a.cancelled) void message.warning(t('maintenance.refresh.cancelled', a as unknown as Record<string, number>));
      else void message.success(t('maintenance.refresh.done', a as unknown as Record<string, number>));
      refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
      setWatching(false);
      setCancelling(false);
      setProgress(null);
    }
  };

  const cancel = async () => {
    if (!progress) return;
    setCancelling(true);
    try {
      await request('/carrier-asset/refresh/cancel', { runId: progress.runId });
    } catch (e) {
      setCancelling(false);
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const working = busy || watching;
  return (
    <>
      <Button
        icon={<SyncOutlined spin={working} />}
        loading={busy}
        disabled={watching && !busy}
        onClick={() => void run()}
        data-testid="maintenance-refresh-assets"
      >
        {working ? t('maintenance.refresh.running') : t('maintenance.refresh.button')}
      </Button>
      {working && progress && (
        <Space size={8} data-testid="maintenance-refresh-progress" data-done={progress.done} data-carriers={progress.carriers}>
          <Progress percent={progress.percent} size="small" style={{ width: 140, margin: 0 }} />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {watching && !busy && progress.operator ? t('maintenance.refresh.runningBy', { operator: progress.operator }) + ' · ' : ''}
            {t('maintenance.refresh.progress', {
              done: progress.done.toLocaleString(i18n.language),
              carriers: progress.carriers.toLocaleString(i18n.language),
            })}
          </Typography.Text>
          {cancelling || progress.cancelled ? (
            <Typography.Text type="warning" style={{ fontSize: 12 }} data-testid="maintenance-refresh-cancelling">
              {t('maintenance.refresh.cancelling')}
            </Typography.Text>
          ) : (
            <Popconfirm
              title={t('maintenance.refresh.cancelQuestion')}
              okText={t('maintenance.refresh.cancelYes')}
              cancelText={t('maintenance.refresh.cancelNo')}
              okButtonProps={{ danger: true }}
              onConfirm={() => void cancel()}
            >
              <Button size="small" danger data-testid="maintenance-refresh-cancel">
                {t('maintenance.refresh.cancel')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      )}
      {error && <Alert type="error" showIcon closable message={error} onClose={() => setError(undefined)} />}
    </>
  );
}
