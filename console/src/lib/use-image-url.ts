import { useEffect, useState } from 'react';
import { request } from '../providers/http-client';

const cache = new Map<string, Promise<string>>();

/**
 * A displayable URL for an image value: data/http URLs as they are, uploaded file names
 * fetched once through POST /file/download (it needs the session headers) as object URLs.
 */
export function useImageUrl(name: string | null | undefined): string | undefined {
  const direct = name && /^(https?:|data:|blob:|\/)/.test(name) ? name : undefined;
  const [url, setUrl] = useState<string | undefined>(direct);
  useEffect(() => {
    if (!name || direct) {
      setUrl(direct);
      return;
    }
    let live = true;
    let hit = cache.get(name);
    if (!hit) {
      hit = request<Blob>('/file/download', { fileName: name }, { blob: true }).then((b) => URL.createObjectURL(b));
      hit.catch(() => cache.delete(name));
      cache.set(name, hit);
    }
    hit.then(
      (u) => live && setUrl(u),
      () => live && setUrl(undefined),
    );
    return () => {
      live = false;
    };
  }, [name, direct]);
  return url;
}
