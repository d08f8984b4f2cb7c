/** Body readers of the account calls: text or nothing, and required text named in the caller's language. */
import { ApiError, ErrorCode } from '../http/api-error';
import type { Language } from '../http/types';
import { msg } from '../access/messages';

export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function required(lang: Language, body: Record<string, unknown>, name: string): string {
  const v = str(body[name]);
  if (!v.trim()) throw new ApiError(ErrorCode.validation, msg(lang, 'auth.required', { name: msg(lang, `field.${name}`) }));
  return v;
}
