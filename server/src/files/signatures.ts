/**
 * File types by their first bytes: a name can lie, the signature cannot (much). Office
 * Open XML files (docx, xlsx, pptx) are zip archives; legacy doc/xls/ppt are OLE compound files.
 */
export type Signature = 'png' | 'jpeg' | 'pdf' | 'zip' | 'ole';

const MAGIC: Array<[Signature, number[]]> = [
  ['png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['jpeg', [0xff, 0xd8, 0xff]],
  ['pdf', [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ['zip', [0x50, 0x4b, 0x03, 0x04]],
  ['ole', [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]],
];

/** Bytes needed to tell every known signature apart. */
export const SIGNATURE_BYTES = 8;

export function sniff(head: Buffer): Signature | null {
  for (const [kind, bytes] of MAGIC) if (head.length >= bytes.length && bytes.every((b, i) => head[i] === b)) return kind;
  return null;
}

/** The signature each accepted extension must carry. */
export const EXTENSION_SIGNATURE: Record<string, Signature | null> = {
  // plain text: it must carry no binary format's signature (a workbook renamed .csv is refused)
  csv: null,
  jpg: 'jpeg',
  jpeg: 'jpeg',
  png: 'png',
  pdf: 'pdf',
  docx: 'zip',
  xlsx: 'zip',
  pptx: 'zip',
  doc: 'ole',
  xls: 'ole',
  ppt: 'ole',
};

export const extensionOf = (name: string): string => {
  const m = /\.([A-Za-z0-9]+)$/.exec(name);
  return m ? m[1].toLowerCase() : '';
};
