/**
 * Declared image dimensions read from the file's own header, without decoding a pixel: a
 * 250 KB PNG may declare 16000 × 16000 (a gigabyte once decoded), so the size is judged
 * before any decoder sees the file. PNG, JPEG, GIF, WebP and BMP; null when the header is
 * missing, truncated or inconsistent (the upload is then refused as not an image).
 */
export type ImageType = 'png' | 'jpeg' | 'gif' | 'webp' | 'bmp';

export interface ImageHeader {
  type: ImageType;
  width: number;
  height: number;
}

export interface ImageLimits {
  /** longest accepted side, in pixels */
  maxSide: number;
  /** width × height */
  maxPixels: number;
}

/**
 * Documented in docs/SERVER.md: 10,000 px on a side and 25 megapixels cover a 24 MP camera
 * photo (6000 × 4000); decoding one takes about 100 MB of RGBA in the thumbnail worker.
 */
export const IMAGE_LIMITS: ImageLimits = { maxSide: 10_000, maxPixels: 25_000_000 };

export const withinLimits = (h: ImageHeader, limits: ImageLimits = IMAGE_LIMITS): boolean =>
  h.width <= limits.maxSide && h.height <= limits.maxSide && h.width * h.height <= limits.maxPixels;

const sized = (type: ImageType, width: number, height: number): ImageHeader | null =>
  Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0 ? { type, width, height } : null;

function png(b: Buffer): ImageHeader | null {
  // signature, then IHDR must be the first chunk: length 13, type "IHDR", width, height
  if (b.length < 24 || b.readUInt32BE(8) !== 13 || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return sized('png', b.readUInt32BE(16), b.readUInt32BE(20));
}

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic); not DHT/JPG/DAC. */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(b: Buffer): ImageHeader | null {
  // Walks the marker segments (EXIF and other APPn blocks may come first) up to the frame header.
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image / scan before any frame header
    const length = b.readUInt16BE(i + 2);
    if (length < 2) return null;
    if (SOF.has(marker)) {
      if (i + 9 > b.length || length < 7) return null;
      return sized('jpeg', b.readUInt16BE(i + 7), b.readUInt16BE(i + 5));
    }
    i += 2 + length;
  }
  return null;
}

function gif(b: Buffer): ImageHeader | null {
  // The logical screen, and every frame's own rectangle (a frame may declare more than the screen).
  if (b.length < 13) return null;
  let width = b.readUInt16LE(6);
  let height = b.readUInt16LE(8);
  let i = 13;
  if (b[10] & 0x80) i += 3 * (1 << ((b[10] & 7) + 1));
  const skipBlocks = () => {
    while (i < b.length && b[i] !== 0) i += b[i] + 1;
    i += 1;
  };
  while (i < b.length) {
    const kind = b[i];
    if (kind === 0x3b) break; // trailer
    if (kind === 0x21) {
      i += 2;
      skipBlocks();
    } else if (kind === 0x2c) {
      if (i + 10 > b.length) return null;
      width = Math.max(width, b.readUInt16LE(i + 1) + b.readUInt16LE(i + 5));
      height = Math.max(height, b.readUInt16LE(i + 3) + b.readUInt16LE(i + 7));
      const flags = b[i + 9];
      i += 10;
      if (flags & 0x80) i += 3 * (1 << ((flags & 7) + 1));
      i += 1; // LZW minimum code size
      skipBlocks();
    } else return null;
  }
  return sized('gif', width, height);
}

function webp(b: Buffer): ImageHeader | null {
  if (b.length < 30) return null;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return sized('webp', b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1);
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return null;
    const bits = b.readUInt32LE(21);
    return sized('webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8 ') {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return sized('webp', b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff);
  }
  return null;
}

function bmp(b: Buffer): ImageHeader | null {
  if (b.length < 26) return null;
  const dib = b.readUInt32LE(14);
  if (dib === 12) return sized('bmp', b.readUInt16LE(18), b.readUInt16LE(20));
  if (dib < 40) return null;
  // a negative height means top-down rows
  return sized('bmp', Math.abs(b.readInt32LE(18)), Math.abs(b.readInt32LE(22)));
}

/** The image's type and declared dimensions, from its first bytes (the whole file for JPEG and GIF). */
export function readImageHeader(b: Buffer): ImageHeader | null {
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return png(b);
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpeg(b);
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return gif(b);
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return webp(b);
  if (b.length >= 2 && b.toString('latin1', 0, 2) === 'BM') return bmp(b);
  return null;
}
