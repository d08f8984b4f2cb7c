/** Upload kinds and their SPEC §5/§9 limits. */
export type UploadKind = 'image' | 'file';

export interface UploadLimit {
  action: string;
  extensions: string[];
  maxKB: number;
  accept: string;
}

export const UPLOAD_LIMITS: Record<UploadKind, UploadLimit> = {
  image: { action: '/api/file/image/upload', extensions: ['jpg', 'jpeg', 'png'], maxKB: 5120, accept: '.jpg,.jpeg,.png' },
  file: {
    action: '/api/file/file/upload',
    extensions: ['doc', 'ppt', 'xls', 'docx', 'pptx', 'xlsx', 'pdf'],
    maxKB: 10240,
    accept: '.doc,.ppt,.xls,.docx,.pptx,.xlsx,.pdf',
  },
};

export interface UploadProblem {
  /** i18n key: validation.<kind>Format (the formats) or validation.<kind>Size (the size in KB) — one message each (SPEC §5) */
  key: string;
  reason: 'format' | 'size';
  params: { formats: string; size: number };
}

/** Why a chosen file may not be uploaded, or null when it may. */
export function uploadProblem(kind: UploadKind, file: { name: string; size: number }): UploadProblem | null {
  const limit = UPLOAD_LIMITS[kind];
  const ext = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '';
  const params = { formats: limit.extensions.join(', '), size: limit.maxKB };
  if (!limit.extensions.includes(ext)) return { key: `validation.${kind}Format`, reason: 'format', params };
  if (file.size > limit.maxKB * 1024) return { key: `validation.${kind}Size`, reason: 'size', params };
  return null;
}

/** How many files a field holds: `max` when set on an upload field, SPEC default 1. */
export const uploadCount = (max: number | undefined): number => (max && max > 1 ? max : 1);
