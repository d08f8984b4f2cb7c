import { PaperClipOutlined, PictureOutlined } from '@ant-design/icons';
import { Image, Skeleton, Typography } from 'antd';
import { useEffect, useState, type FC } from 'react';
import { request } from '../../providers/http-client';

/*
 * Uploaded files are served by POST /file/download with the session headers, so an <img src>
 * cannot fetch them. Each stored name is fetched once per page life and shared as an object URL.
 */
const cache = new Map<string, Promise<string>>();

/** Name of the server-made thumbnail of an uploaded image. */
export const thumbName = (name: string): string => name.replace(/\.[^./]+$/, '.thumb.jpg');

const fileName = (v: string): string => v.replace(/^.*\/api\/file\/download\?fileName=/, '');

export function storedFileUrl(name: string): Promise<string> {
  const key = fileName(name);
  let hit = cache.get(key);
  if (!hit) {
    hit = request<Blob>('/file/download', { fileName: key }, { blob: true }).then((b) => URL.createObjectURL(b));
    hit.catch(() => cache.delete(key));
    cache.set(key, hit);
  }
  return hit;
}

export function useStoredFileUrl(name: string | undefined): { url?: string; failed: boolean } {
  const [state, setState] = useState<{ url?: string; failed: boolean }>({ failed: false });
  useEffect(() => {
    if (!name) return;
    if (/^(https?:|data:|blob:)/.test(name)) return setState({ url: name, failed: false });
    let live = true;
    storedFileUrl(name).then(
      (url) => live && setState({ url, failed: false }),
      () => live && setState({ failed: true }),
    );
    return () => {
      live = false;
    };
  }, [name]);
  return state;
}

/** An uploaded image: the thumbnail in place, the full image on preview. */
export const StoredImage: FC<{ name: string; size: number; alt?: string }> = ({ name, size, alt }) => {
  const thumb = useStoredFileUrl(thumbName(fileName(name)));
  const [full, setFull] = useState<string>();
  if (thumb.failed) {
    return (
      <span
        title={fileName(name)}
        style={{
          display: 'inline-flex',
          width: size,
          height: size,
          alignItems: 'center',
          justifyContent: 'center',
          borderRadius: 4,
          background: 'rgba(0,0,0,.04)',
          color: 'rgba(0,0,0,.25)',
        }}
      >
        <PictureOutlined />
      </span>
    );
  }
  if (!thumb.url) return <Skeleton.Image active style={{ width: size, height: size }} />;
  return (
    <Image
      src={thumb.url}
      width={size}
      height={size}
      alt={alt}
      style={{ objectFit: 'cover', borderRadius: 4 }}
      preview={{
        src: full,
        onVisibleChange: (open) => {
          if (open && !full) void storedFileUrl(name).then(setFull, () => undefined);
        },
      }}
    />
  );
};

/** An uploaded file as a link that downloads it with the session headers. */
export const StoredFileLink: FC<{ name: string }> = ({ name }) => {
  const label = fileName(name);
  return (
    <Typography.Link
      onClick={() =>
        void storedFileUrl(name).then((url) => {
          const a = document.createElement('a');
          a.href = url;
          a.download = label;
          a.click();
        })
      }
    >
      <PaperClipOutlined /> {label}
    </Typography.Link>
  );
};
