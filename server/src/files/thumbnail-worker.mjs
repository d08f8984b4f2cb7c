// Decodes one image and writes its JPEG thumbnail, in a worker thread so that a large (but
// allowed) image never stalls the server's event loop. Plain JavaScript: it runs under any
// loader (tsx, vitest, node). Messages: { id, source, target, size } → { id, error? }.
import { readFile, writeFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { Jimp } from 'jimp';

parentPort.on('message', async ({ id, source, target, size }) => {
  try {
    const image = await Jimp.read(await readFile(source));
    if (image.bitmap.width > size || image.bitmap.height > size) image.scaleToFit({ w: size, h: size });
    // JPEG has no alpha: flatten transparent PNGs onto white rather than black.
    const flat = new Jimp({ width: image.bitmap.width, height: image.bitmap.height, color: 0xffffffff }).composite(image, 0, 0);
    await writeFile(target, await flat.getBuffer('image/jpeg', { quality: 80 }));
    parentPort.postMessage({ id });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err?.message ?? err) });
  }
});
