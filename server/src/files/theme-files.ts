/**
 * The two things the organisation's theme needs from the upload store, kept apart from the
 * upload calls: copying an uploaded image into another organisation's folder (a theme image
 * uploaded while creating or editing an organisation lands in the uploader's current one), and
 * reading one stored file of an organisation for its public login page. Same layout as
 * file-calls: <dataDir>/uploads/<orgId>/<stored name>, beside it <name>.json and the thumbnail.
 */
import { createReadStream, type ReadStream } from 'node:fs';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Stored names only (as file-calls writes them): 32 hex digits, optional ".thumb", an extension. */
export const STORED_FILE_NAME = /^[0-9a-f]{32}(\.thumb)?\.[a-z]{3,4}$/;

const folder = (dataDir: string, orgId: number) => join(dataDir, 'uploads', String(orgId));

const isFile = async (path: string) => (await stat(path).catch(() => null))?.isFile() ?? false;

/**
 * Copies a stored file (with its description and thumbnail) from one organisation's folder into
 * another's, unless it is there already. Answers whether the target holds the file afterwards.
 */
export async function copyStoredFile(dataDir: string, fromOrgId: number, toOrgId: number, name: string): Promise<boolean> {
  if (!STORED_FILE_NAME.test(name) || name.includes('.thumb.')) return false;
  const from = folder(dataDir, fromOrgId);
  const to = folder(dataDir, toOrgId);
  if (await isFile(join(to, name))) return true;
  if (fromOrgId === toOrgId || !(await isFile(join(from, name)))) return false;
  await mkdir(to, { recursive: true });
  const thumb = name.replace(/\.[a-z]{3,4}$/, '.thumb.jpg');
  for (const f of [`${name}.json`, thumb]) {
    if (await isFile(join(from, f))) await copyFile(join(from, f), join(to, f));
  }
  await copyFile(join(from, name), join(to, name));
  return true;
}

/** A stored file of an organisation, opened for reading; null when it is not there. */
export async function openStoredFile(dataDir: string, orgId: number, name: string): Promise<{ size: number; modified: Date; stream: () => ReadStream } | null> {
  if (!STORED_FILE_NAME.test(name)) return null;
  const path = join(folder(dataDir, orgId), name);
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return null;
  return { size: info.size, modified: info.mtime, stream: () => createReadStream(path) };
}
