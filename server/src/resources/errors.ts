/** Validation refusals that name the field by its translated label. */
import { fieldLabelKey, type FieldDef } from '@rti/metadata';
import { ApiError, ErrorCode } from '../http/api-error';
import { tKey } from '../i18n/translator';

export const fieldParam = (f: Pick<FieldDef, 'name' | 'label'>) => tKey(fieldLabelKey(f));

/** 10001 naming the field; wrong JSON types answer HTTP 400, rule violations 200. */
export function fieldError(f: Pick<FieldDef, 'name' | 'label'>, key: string, params: Record<string, unknown> = {}, httpStatus = 200): ApiError {
  return new ApiError(ErrorCode.validation, `server.validation.${key}`, { field: fieldParam(f), ...params }, httpStatus);
}

export function typeError(f: Pick<FieldDef, 'name' | 'label'>, expected: string): ApiError {
  return fieldError(f, 'type', { expected: tKey(`server.validation.expected.${expected}`) }, 400);
}

export const notFound = () => new ApiError(ErrorCode.notFound, 'server.errors.10002');
