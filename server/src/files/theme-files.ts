/**
 * The two things the organisation's theme needs from the file store, kept apart from the
 * upload calls: copying an uploaded image into another organisation (a theme image uploaded
 * while creating or editing an organisation lands in the uploader's current one), and reading
 * one stored file of an organisation for its public login page. Through the one storage
 * interface (local folder or S3): keys `uploads/<orgId>/<name>`, beside it `<name>.json` and
 * the thumbnail `<id>.thumb.jpg`, as file-calls writes them.
 */
import { objectKey, type ObjectStorage, type StoredObject } from './storage';

/** Stored names only (as file-calls writes them): 32 hex digits, optional ".thumb", an extension. */
export const STORED_FILE_NAME = /^[0-9a-f]{32}(\.thumb)?\.[a-z]{3,4}$/;

const key = (orgId: number, name: string) => objectKey('uploads', orgId, name);

async function exists(storage: ObjectStorage, k: string): Promise<boolean> {
  const found = await storage.get(k);
  found?.body.destroy();
  return found !== null;
}

/**
 * Copies a stored file (with its description and thumbnail) from one organisation into
 * another, unless it is there already. Answers whether the target holds the file afterwards.
 */
export async function copyStoredFile(storage: ObjectStorage, fromOrgId: number, toOrgId: number, name: string): Promise<boolean> {
  if (!STORED_FILE_NAME.test(name) || name.includes('.thumb.')) return false;
  if (await exists(storage, key(toOrgId, name))) return true;
  if (fromOrgId === toOrgId) return false;
  const main = await storage.getBuffer(key(fromOrgId, name));
  if (!main) return false;
  const thumb = name.replace(/\.[a-z]{3,4}$/, '.thumb.jpg');
  for (const extra of [`${name}.json`, thumb]) {
    const data = await storage.getBuffer(key(fromOrgId, extra));
    if (data) await storage.putBuffer(key(toOrgId, extra), data);
  }
  // the main object last: a copy cut short is never served as whole
  await storage.putBuffer(key(toOrgId, name), main);
  return true;
}

/** A stored file of an organisation, opened for reading; null when it is not there. */
export async function openStoredFile(storage: ObjectStorage, orgId: number, name: string): Promise<StoredObject | null> {
  if (!STORED_FILE_NAME.test(name)) return null;
  return storage.get(key(orgId, name));
}
