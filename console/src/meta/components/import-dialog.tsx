import { DownloadOutlined, ImportOutlined, InboxOutlined } from '@ant-design/icons';
import { Alert, App, Button, Checkbox, Descriptions, Modal, Progress, Result, Select, Space, Spin, Table, Upload } from 'antd';
import { useEffect, useReducer, useRef, useState, type FC } from 'react';
import { resourceApiPath, resourceLabelKey, type ResourceDef } from '@rti/metadata/browser';
import { request } from '../../providers/http-client';
import { IMPORT_ACCEPT, importFileProblem, importProgress, importReducer, pollDelay, processedVolume, shouldPoll, type ImportStatus } from '../lib/import-job';
import { postFile } from '../lib/multipart';
import { downloadBlob } from '../lib/download';
import { useMetaT } from '../hooks/use-meta';

/**
 * Import dialog (SPEC §2, §5, §7): template download, xlsx/csv upload ≤ 5,242,880 bytes, a
 * mapping step (the server's preview: header, first rows, suggested mapping; each file column
 * → an import column, "update existing" by the import's key), status polling while processing
 * (the first soon, then every second) with processed of total, then the volumes and per-row
 * reasons (column, value, reason), downloadable as a workbook.
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

/** `<prefix>/import/preview`: what the mapping step shows (docs/SERVER.md "CSV and column mapping"). */
interface ImportPreview {
  format: 'csv' | 'xlsx';
  separator: string | null;
  header: Array<string | null>;
  rows: Array<Array<string | null>>;
  total: number;
  fields: Array<{ name: string; label: string; required: boolean }>;
  key: { name: string; label: string } | null;
  mapping: Record<string, string>;
}

export const ImportDialog: FC<{ resource: ResourceDef; onClose: () => void; onFinished?: () => void }> = ({ resource, onClose, onFinished }) => {
  const { t, fieldLabel } = useMetaT();
  const { message } = App.useApp();
  const [state, dispatch] = useReducer(importReducer, { phase: 'idle' });
  // the chosen file and its preview while the user maps its columns (phase idle)
  const [mapping, setMapping] = useState<{ file: File; preview?: ImportPreview } | null>(null);
  // "update existing" by the import's one key (offered before the file is chosen too)
  const [updateExisting, setUpdateExisting] = useState(false);
  const declaredKey = (resource.import as { key?: string | string[] } | undefined)?.key;
  const keyField = typeof declaredKey === 'string' ? resource.fields.find((f) => f.name === declaredKey) : undefined;
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

  /** The chosen file goes to the mapping step: the server reads its header and first rows. */
  const choose = (file: File) => {
    const problem = importFileProblem(file);
    if (problem) {
      void message.error(t(problem.key, problem.params));
      return;
    }
    setMapping({ file });
    postFile<ImportPreview>(resourceApiPath(resource, 'import/preview'), file, file.name)
      .then((preview) => {
        // a workbook whose every column is known (the template filled in) needs no mapping step
        const known = preview.header.every((h) => h === null || h.trim() === '' || preview.mapping[h]);
        const mapped = new Set(Object.values(preview.mapping));
        if (preview.format === 'xlsx' && known && preview.fields.every((f) => !f.required || mapped.has(f.name)))
          upload(file, updateExisting ? { updateExisting: 'true' } : {});
        else setMapping((m) => (m?.file === file ? { file, preview } : m));
      })
      .catch((e: unknown) => {
        setMapping(null);
        dispatch({ type: 'error', message: e instanceof Error ? e.message : String(e) });
      });
  };

  const upload = (file: File, fields: Record<string, string>) => {
    setMapping(null);
    dispatch({ type: 'upload', fileName: file.name });
    postFile<{ importId: number; totalVolume?: number | null }>(resourceApiPath(resource, 'import'), file, file.name, fields)
      .then((d) => dispatch({ type: 'accepted', importId: d.importId, totalVolume: d.totalVolume }))
      .catch((e: unknown) => dispatch({ type: 'error', message: e instanceof Error ? e.message : String(e) }));
  };

  const busy = state.phase === 'uploading' || state.phase === 'processing';
  const progress = importProgress(state);
  return (
    <Modal
      open
      title={t('meta.importTitle', { resource: label })}
      width={mapping?.preview ? 960 : 720}
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
        {state.phase === 'idle' && mapping && !mapping.preview && (
          <div style={{ textAlign: 'center', padding: 32 }}>
            <Spin />
            <div style={{ marginTop: 12 }}>{t('meta.importReading', { file: mapping.file.name })}</div>
          </div>
        )}
        {state.phase === 'idle' && mapping?.preview && (
          <MappingStep
            file={mapping.file}
            preview={mapping.preview}
            update={updateExisting}
            onBack={() => setMapping(null)}
            onImport={(fields) => upload(mapping.file, fields)}
          />
        )}
        {state.phase === 'idle' && !mapping && (
          <Space direction="vertical" style={{ width: '100%' }} size="middle">
            <Button
              icon={<DownloadOutlined />}
              loading={templateBusy}
              onClick={() => void template() /* reports its own failure */}
              data-testid="meta-import-template"
            >
              {t('meta.downloadTemplate')}
            </Button>
            <Upload.Dragger
              accept={IMPORT_ACCEPT}
              multiple={false}
              showUploadList={false}
              beforeUpload={(file) => {
                choose(file);
                return Upload.LIST_IGNORE;
              }}
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p className="ant-upload-text">{t('meta.importDrop')}</p>
              <p className="ant-upload-hint">{t('validation.importLimit', { size: 5120 })}</p>
            </Upload.Dragger>
            {keyField && (
              <Checkbox checked={updateExisting} onChange={(e) => setUpdateExisting(e.target.checked)} data-testid="meta-import-update">
                {t('meta.importUpdateExisting', { key: fieldLabel(keyField) })}
              </Checkbox>
            )}
          </Space>
        )}
        {busy && (
          <div style={{ textAlign: 'center', padding: 32 }}>
            {progress ? <Progress percent={progress.percent} status="active" data-testid="meta-import-progress" /> : <Spin />}
            <div style={{ marginTop: 12 }}>{t(state.phase === 'uploading' ? 'meta.uploading' : 'meta.importProcessing', { file: state.fileName })}</div>
            {state.phase === 'processing' && (progress || state.status) && (
              <div style={{ color: 'rgba(0,0,0,.45)' }} data-testid="meta-import-count">
                {progress
                  ? t('meta.importProgressOf', { processed: progress.processed, total: progress.total })
                  : t('meta.importProgress', { count: processedVolume(state.status!) })}
              </div>
            )}
          </div>
        )}
        {state.phase === 'failed' && (
          <Alert type="error" showIcon message={t('meta.importFailed')} description={state.message} data-testid="meta-import-error" />
        )}
        {state.phase === 'finished' && <ImportResult resource={resource} result={state.result} />}
      </div>
    </Modal>
  );
};

/**
 * The mapping step: each file column → an import column (or none), suggested by the server from
 * the headers; the first rows under the columns they will fill; the required columns still
 * unmatched (the server refuses them too, naming them); "update existing" when the import has
 * one key.
 */
interface MappingStepProps {
  file: File;
  preview: ImportPreview;
  update: boolean;
  onBack: () => void;
  onImport: (fields: Record<string, string>) => void;
}

const MappingStep: FC<MappingStepProps> = ({ file, preview, update: initialUpdate, onBack, onImport }) => {
  const { t } = useMetaT();
  const columns = preview.header.map((h, i) => ({ i, header: h ?? '' })).filter((c) => c.header.trim() !== '');
  const [map, setMap] = useState<Record<string, string>>(() => ({ ...preview.mapping }));
  const [update, setUpdate] = useState(initialUpdate);
  const used = new Set(Object.values(map).filter(Boolean));
  const missing = preview.fields.filter((f) => f.required && !used.has(f.name));
  const labelOf = (name: string | undefined) => preview.fields.find((f) => f.name === name)?.label;
  const options = [
    { value: '', label: t('meta.importSkip') },
    ...preview.fields.map((f) => ({ value: f.name, label: `${f.label}${f.required ? ' *' : ''}`, disabled: used.has(f.name) })),
  ];
  const sample = (i: number) =>
    preview.rows
      .slice(0, 3)
      .map((r) => r[i])
      .filter((v) => v !== null && v !== undefined && v !== '')
      .join(', ');
  return (
    <div data-testid="meta-import-mapping">
      <h4 style={{ marginTop: 0 }}>{t('meta.importMapTitle', { file: file.name })}</h4>
      <p>
        {t('meta.importMapIntro', { rows: preview.total })}
        {preview.separator ? ` ${t('meta.importSeparator', { separator: preview.separator === '\t' ? 'Tab' : preview.separator })}` : ''}
      </p>
      <Table<{ i: number; header: string }>
        size="small"
        pagination={false}
        rowKey="i"
        dataSource={columns}
        scroll={{ y: 260 }}
        columns={[
          { key: 'h', dataIndex: 'header', title: t('meta.importFileColumn'), width: 180 },
          { key: 's', title: t('meta.importFirstValues'), ellipsis: true, render: (_: unknown, c) => sample(c.i) },
          {
            key: 'm',
            title: t('meta.importAs'),
            width: 260,
            render: (_: unknown, c) => (
              <Select
                style={{ width: '100%' }}
                value={map[c.header] ?? ''}
                options={options}
                // every column of the import in the list (no virtual scrolling), found by typing too
                virtual={false}
                showSearch
                optionFilterProp="label"
                data-testid={`meta-import-map:${c.header}`}
                onChange={(v: string) => setMap((m) => ({ ...m, [c.header]: v }))}
              />
            ),
          },
        ]}
      />
      <h4>{t('meta.importPreview')}</h4>
      <Table
        size="small"
        pagination={false}
        rowKey={(_, k) => String(k)}
        dataSource={preview.rows.map((r) => Object.fromEntries(columns.map((c) => [c.header, r[c.i]])))}
        scroll={{ x: true }}
        columns={columns
          .filter((c) => map[c.header])
          .map((c) => ({ key: c.header, dataIndex: c.header, title: labelOf(map[c.header]) ?? c.header, ellipsis: true }))}
        data-testid="meta-import-preview"
      />
      {missing.length > 0 && (
        <Alert
          style={{ marginTop: 12 }}
          type="warning"
          showIcon
          message={t('meta.importRequiredMissing', { columns: missing.map((f) => f.label).join(', ') })}
          data-testid="meta-import-missing"
        />
      )}
      {preview.key && (
        <Checkbox style={{ marginTop: 12 }} checked={update} onChange={(e) => setUpdate(e.target.checked)} data-testid="meta-import-map-update">
          {t('meta.importUpdateExisting', { key: preview.key.label })}
        </Checkbox>
      )}
      <Space style={{ marginTop: 16, display: 'flex', justifyContent: 'flex-end' }}>
        <Button onClick={onBack} data-testid="meta-import-back">
          {t('meta.importBack')}
        </Button>
        <Button
          type="primary"
          disabled={missing.length > 0}
          onClick={() =>
            onImport({ mapping: JSON.stringify(Object.fromEntries(Object.entries(map).filter(([, v]) => v))), ...(update ? { updateExisting: 'true' } : {}) })
          }
          data-testid="meta-import-start"
        >
          {t('meta.importStart')}
        </Button>
      </Space>
    </div>
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
      <Descriptions
        size="small"
        bordered
        column={3}
        items={[
          { key: 'p', label: t('meta.processedVolume'), children: processedVolume(result) },
          { key: 's', label: t('meta.successVolume'), children: <span data-testid="meta-import-success">{result.successVolume ?? 0}</span> },
          { key: 'f', label: t('meta.failedVolume'), children: <span data-testid="meta-import-failed">{failed}</span> },
        ]}
      />
      {(result.importErrors?.length ?? 0) > 0 && (
        <Button
          style={{ marginTop: 12 }}
          icon={<DownloadOutlined />}
          loading={downloading}
          onClick={() => void download() /* reports its own failure */}
          data-testid="meta-import-download-result"
        >
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
