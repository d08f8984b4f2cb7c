/**
 * Thumbnails in pure JavaScript (jimp): the sharp binary cannot be fetched in every install.
 * Decoding also proves the upload is a real image, not just the right first bytes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { Jimp } from 'jimp';

export const THUMB_SIZE = 200;

/** Writes a JPEG thumbnail (at most THUMB_SIZE on each side) of the image at `source`. */
export async function writeThumbnail(source: string, target: string): Promise<void> {
  const image = await Jimp.read(await readFile(source));
  if (image.bitmap.width > THUMB_SIZE || image.bitmap.height > THUMB_SIZE) image.scaleToFit({ w: THUMB_SIZE, h: THUMB_SIZE });
  // JPEG has no alpha: flatten transparent PNGs onto white rather than black.
  const flat = new Jimp({ width: image.bitmap.width, height: image.bitmap.height, color: 0xffffffff }).composite(image, 0, 0);
  await writeFile(target, await flat.getBuffer('image/jpeg', { quality: 80 }));
}
