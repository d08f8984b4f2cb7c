import { DownloadOutlined, ImportOutlined, InboxOutlined } from '@ant-design/icons';
import { Alert, App, Button, Descriptions, Modal, Progress, Result, Space, Spin, Table, Upload } from 'antd';
import { useEffect, useReducer, useRef, useState, type FC } from 'react';
import { resourceApiPath, resourceLabelKey, type ResourceDef } from '@rti/metadata/browser';
import { request } from '../../providers/http-client';
import {
  IMPORT_ACCEPT,
  importFileProblem,
  importProgress,
  importReducer,
  pollDelay,
  processedVolume,
  shouldPoll,
  type ImportStatus,
} from '../lib/import-job';
import { postFile } from '../lib/multipart';
import { downloadBlob } from '../lib/download';
import { useMetaT } from '../hooks/use-meta';

/**
 * Import dialog (SPEC §2, §5, §7): template download, xls/xlsx upload ≤ 5,242,880 bytes,
 * status polling while processing (the first soon, then every second) with processed of total,
 * then the volumes and per-row reasons (column, value, reason), downloadable as a workbook.
 */
export const ImportButton: FC<{ resource: ResourceDef; onFinished?: () => void }> = ({ resource, onFinished }) => {
  const { t } = useMetaT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<ImportOutlined />} onClick={() => setOpen(true)} data-testid="meta-import">
        {t('meta.import')}
      </Button>
      {open && <ImportDialog resource={resource} onClose={() => setOpen(false)} onFinished={onFinished} />}
    </>
  );
};

export const ImportDialog: FC<{ resource: ResourceDef; onClose: () => void; onFinished?: () => void }> = ({ resource, onClose, onFinished }) => {
  const { t } = useMetaT();
  const { message } = App.useApp();
  const [state, dispatch] = useReducer(importReducer, { phase: 'idle' });
  const [templateBusy, setTemplateBusy] = useState(false);
  const finishedRef = useRef(onFinished);
  finishedRef.current = onFinished;
  const label = t(resourceLabelKey(resource));
  const importId = state.phase === 'processing' ? state.importId : undefined;
  const polls = state.phase === 'processing' ? state.polls : 0;

  // one status request per period while processing; the effect re-arms after every answer
  const poll = shouldPoll(state);
  const delay = pollDelay(state);
  useEffect(() => {
    if (!poll || importId === undefined) return;
    let live = true;
    const timer = setTimeout(() => {
      request<ImportStatus>(resourceApiPath(resource, 'import/status'), { importId })
        .then((status) => live && dispatch({ type: 'status', status }))
        .catch((e: unknown) => live && dispatch({ type: 'error', message: e instanceof Error ? e.message : String(e) }));
    }, delay);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // polls changes after each processing answer: schedule the next one
  }, [poll, delay, importId, polls, resource]);

  useEffect(() => {
    if (state.phase === 'finished') finishedRef.current?.();
  }, [state.phase]);

  const template = async () => {
    setTemplateBusy(true);
    try {
      const blob = await request<Blob>(resourceApiPath(resource, 'import/template'), {}, { blob: true });
      downloadBlob(blob, `${label}-${t('meta.template')}.xlsx`);
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setTemplateBusy(false);
    }
  };

  const upload = (file: File) => {
    const problem = importFileProblem(file);
    if (problem) {
      void message.error(t(problem.key, problem.params));
      return;
    }
    dispatch({ type: 'upload', fileName: file.name });
    postFile<{ importId: number; totalVolume?: number | null }>(resourceApiPath(resource, 'import'), file, file.name)
      .then((d) => dispatch({ type: 'accepted', importId: d.importId, totalVolume: d.totalVolume }))
      .catch((e: unknown) => dispatch({ type: 'error', message: e instanceof Error ? e.message : String(e) }));
  };

  const busy = state.phase === 'uploading' || state.phase === 'processing';
  const progress = importProgress(state);
  return (
    <Modal
      open
      title={t('meta.importTitle', { resource: label })}
      width={720}
      onCancel={onClose}
      maskClosable={!busy}
      footer={
        <Space>
          {(state.phase === 'finished' || state.phase === 'failed') && (
            <Button onClick={() => dispatch({ type: 'reset' })} data-testid="meta-import-again">
              {t('meta.importAgain')}
            </Button>
          )}
          <Button type="primary" onClick={onClose} data-testid="meta-import-close">
            {t('meta.close')}
          </Button>
        </Space>
      }
    >
      <div data-testid="meta-import-dialog" data-phase={state.phase}>
        {state.phase === 'idle' && (
          <Space direction="vertical" style={{ width: '100%' }} size="middle">
            <Button icon={<DownloadOutlined />} loading={templateBusy} onClick={() => void template() /* reports its own failure */} data-testid="meta-import-template">
              {t('meta.downloadTemplate')}
            </Button>
            <Upload.Dragger
              accept={IMPORT_ACCEPT}
              multiple={false}
              showUploadList={false}
              beforeUpload={(file) => {
                upload(file);
                return Upload.LIST_IGNORE;
              }}
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p className="ant-upload-text">{t('meta.importDrop')}</p>
              <p className="ant-upload-hint">{t('validation.importLimit', { size: 5120 })}</p>
            </Upload.Dragger>
          </Space>
        )}
        {busy && (
          <div style={{ textAlign: 'center', padding: 32 }}>
            {progress ? <Progress percent={progress.percent} status="active" data-testid="meta-import-progress" /> : <Spin />}
            <div style={{ marginTop: 12 }}>
              {t(state.phase === 'uploading' ? 'meta.uploading' : 'meta.importProcessing', { file: state.fileName })}
            </div>
            {state.phase === 'processing' && (progress || state.status) && (
              <div style={{ color: 'rgba(0,0,0,.45)' }} data-testid="meta-import-count">
                {progress
                  ? t('meta.importProgressOf', { processed: progress.processed, total: progress.total })
                  : t('meta.importProgress', { count: processedVolume(state.status!) })}
              </div>
            )}
          </div>
        )}
        {state.phase === 'failed' && <Alert type="error" showIcon message={t('meta.importFailed')} description={state.message} data-testid="meta-import-error" />}
        {state.phase === 'finished' && <ImportResult resource={resource} result={state.result} />}
      </div>
    </Modal>
  );
};

const ImportResult: FC<{ resource: ResourceDef; result: ImportStatus }> = ({ resource, result }) => {
  const { t } = useMetaT();
  const { message } = App.useApp();
  const [downloading, setDownloading] = useState(false);
  const failed = result.failedVolume ?? 0;
  const hasColumns = result.importErrors?.some((e) => e.column !== undefined || e.value !== undefined) ?? false;
  // the refused rows with their reasons, in the user's language, as the server's workbook
  const download = async () => {
    setDownloading(true);
    try {
      const blob = await request<Blob>(resourceApiPath(resource, 'import/result'), { importId: result.importId }, { blob: true });
      downloadBlob(blob, `${t(resourceLabelKey(resource))}-${t('meta.reason')}.xlsx`);
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setDownloading(false);
    }
  };
  return (
    <div data-testid="meta-import-result">
      <Result
        style={{ padding: '8px 0' }}
        status={result.message ? 'error' : failed > 0 ? 'warning' : 'success'}
        title={t('meta.importFinished')}
        subTitle={result.message ?? undefined}
      />
      <Descriptions size="small" bordered column={3}
        items={[
          { key: 'p', label: t('meta.processedVolume'), children: processedVolume(result) },
          { key: 's', label: t('meta.successVolume'), children: <span data-testid="meta-import-success">{result.successVolume ?? 0}</span> },
          { key: 'f', label: t('meta.failedVolume'), children: <span data-testid="meta-import-failed">{failed}</span> },
        ]}
      />
      {(result.importErrors?.length ?? 0) > 0 && (
        <Button style={{ marginTop: 12 }} icon={<DownloadOutlined />} loading={downloading} onClick={() => void download() /* reports its own failure */} data-testid="meta-import-download-result">
          {t('meta.downloadResult')}
        </Button>
      )}
      {(result.importErrors?.length ?? 0) > 0 && (
        <Table
          style={{ marginTop: 12 }}
          size="small"
          rowKey={(r, i) => `${r.row}-${i}`}
          dataSource={result.importErrors}
          pagination={{ pageSize: 10, size: 'small', hideOnSinglePage: true }}
          columns={[
            { key: 'row', dataIndex: 'row', title: t('meta.row'), width: 70 },
            ...(hasColumns
              ? [
                  { key: 'column', dataIndex: 'column', title: t('meta.importColumn'), width: 120 },
                  { key: 'value', dataIndex: 'value', title: t('meta.importValue'), width: 140, ellipsis: true },
                ]
              : []),
            { key: 'reason', dataIndex: 'reason', title: t('meta.reason') },
          ]}
          data-testid="meta-import-errors"
        />
      )}
    </div>
  );
};
