/** Multipart POST of one file with the session headers, read as the usual envelope. */
import { API_BASE } from '../../constants';
import { apiHeaders } from '../../providers/http-client';

export async function postFile<T>(path: string, file: File | Blob, name: string, fields: Record<string, string> = {}): Promise<T> {
  const body = new FormData();
  // fields first: the server reads them as the file arrives
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  body.append('file', file, name);
  const res = await fetch(API_BASE + path, { method: 'POST', headers: apiHeaders(), body });
  let env: { code?: number; message?: string; data?: T } | undefined;
  try {
    env = (await res.json()) as typeof env;
  } catch {
    env = undefined;
  }
  if (!res.ok || !env || env.code !== 0) throw new Error(env?.message || `HTTP ${res.status}`);
  return env.data as T;
}
