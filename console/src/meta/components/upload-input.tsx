import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Upload, type UploadFile } from 'antd';
import { useEffect, useState, type FC } from 'react';
import { apiHeaders } from '../../providers/http-client';
import { asArray } from '../lib/format';
import { UPLOAD_LIMITS, uploadCount, uploadProblem, type UploadKind } from '../lib/upload';
import { useMetaT } from '../hooks/use-meta';
import { storedFileUrl, thumbName } from './stored-file';

export interface UploadInputProps {
  kind: UploadKind;
  /** stored file name, or names when `max` > 1 */
  value?: string | string[] | null;
  onChange?: (v: string | string[] | null) => void;
  max?: number;
  disabled?: boolean;
  id?: string;
}

interface UploadAnswer {
  code: number;
  message?: string;
  data?: { fileName: string; url?: string; thumbUrl?: string };
}

const toFile = (name: string): UploadFile => ({
  uid: name,
  name: name.split('/').pop() ?? name,
  status: 'done',
  response: { code: 0, data: { fileName: name } },
});
const storedName = (f: UploadFile): string | undefined => (f.response as UploadAnswer | undefined)?.data?.fileName;

/** Image or file uploader posting to the SPEC upload calls, with the SPEC §5 limits. */
export const UploadInput: FC<UploadInputProps> = ({ kind, value, onChange, max, disabled, id }) => {
  const { t } = useMetaT();
  const { message } = App.useApp();
  const limit = UPLOAD_LIMITS[kind];
  const count = uploadCount(max);
  const [files, setFiles] = useState<UploadFile[]>(() => asArray(value).map((n) => toFile(String(n))));

  // follow outside changes (form reset, record loaded) without dropping uploads in flight
  useEffect(() => {
    const names = asArray(value).map(String);
    setFiles((cur) => {
      const done = cur.filter((f) => f.status === 'done').map((f) => (f.response as UploadAnswer | undefined)?.data?.fileName);
      if (done.length === names.length && done.every((n, i) => n === names[i])) return cur;
      return [...names.map(toFile), ...cur.filter((f) => f.status === 'uploading')];
    });
  }, [value]);

  // stored images need the session headers: fetch their thumbnails as object URLs
  useEffect(() => {
    if (kind !== 'image') return;
    for (const f of files) {
      const name = storedName(f);
      if (f.status !== 'done' || f.thumbUrl || !name) continue;
      void storedFileUrl(thumbName(name)).then(
        (url) => setFiles((cur) => cur.map((x) => (x.uid === f.uid ? { ...x, thumbUrl: url } : x))),
        () => undefined,
      );
    }
  }, [files, kind]);

  const emit = (list: UploadFile[]) => {
    const names = list
      .filter((f) => f.status === 'done')
      .map((f) => (f.response as UploadAnswer | undefined)?.data?.fileName)
      .filter((n): n is string => Boolean(n));
    onChange?.(count > 1 ? names : (names[0] ?? null));
  };

  return (
    <Upload
      id={id}
      action={limit.action}
      headers={apiHeaders()}
      accept={limit.accept}
      name="file"
      listType={kind === 'image' ? 'picture-card' : 'text'}
      fileList={files}
      maxCount={count}
      disabled={disabled}
      beforeUpload={(file) => {
        const problem = uploadProblem(kind, file);
        if (!problem) return true;
        void message.error(t(problem.key, problem.params));
        return Upload.LIST_IGNORE;
      }}
      onChange={({ fileList }) => {
        // a 200 answer with a non-zero code is a failed upload carrying the server's message
        const list = fileList.map((f) => {
          const answer = f.response as UploadAnswer | undefined;
          if (f.status === 'done' && answer && answer.code !== 0) {
            return { ...f, status: 'error' as const, error: new Error(answer.message), response: answer.message };
          }
          return f;
        });
        for (const f of list) if (f.status === 'error' && typeof f.response === 'string') void message.error(f.response);
        setFiles(list);
        if (list.every((f) => f.status !== 'uploading')) emit(list);
      }}
      onPreview={(file) => {
        const name = storedName(file);
        if (name)
          void storedFileUrl(name).then(
            (url) => window.open(url, '_blank', 'noopener'),
            () => undefined,
          );
      }}
      onRemove={(file) => {
        const list = files.filter((f) => f.uid !== file.uid);
        setFiles(list);
        emit(list);
        return true;
      }}
    >
      {files.length >= count ? null : kind === 'image' ? (
        <button type="button" style={{ border: 0, background: 'none', cursor: 'pointer' }}>
          <PlusOutlined />
          <div style={{ marginTop: 8 }}>{t('meta.upload')}</div>
        </button>
      ) : (
        <Button icon={<UploadOutlined />} disabled={disabled}>
          {t('meta.upload')}
        </Button>
      )}
    </Upload>
  );
};
