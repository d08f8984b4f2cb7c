/** Small shared pieces of the master-data calls and hooks. */
import { Op, type Transaction, type WhereOptions } from 'sequelize';
import type { PluginServerContext, RequestContext } from '@rti/server/plugin-api';
import { ApiError, ErrorCode, tKey } from '@rti/server/plugin-api';

/** 10001 "<name> must be <expected>" for a body parameter of a plugin call. */
export const typeError = (name: string, expected: 'string' | 'integer' | 'list' | 'id' | 'object') =>
  new ApiError(ErrorCode.validation, 'server.validation.type', { field: name, expected: tKey(`server.validation.expected.${expected}`) });

/** 10001 "Please input <name>". */
export const requiredError = (name: string) => new ApiError(ErrorCode.validation, 'server.validation.required', { field: name });

/** A positive integer id parameter. */
export function idParam(body: Record<string, unknown>, name: string): number {
  const v = body[name];
  if (v === undefined || v === null || v === '') throw requiredError(name);
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw typeError(name, 'id');
  return v;
}

export type Row = Record<string, unknown>;

/** A keyword condition (contains, case as the database compares) over several fields. */
export function keywordWhere(keyword: unknown, fields: string[]): WhereOptions | null {
  if (keyword === undefined || keyword === null || keyword === '') return null;
  if (typeof keyword !== 'string' && typeof keyword !== 'number') throw typeError('keyword', 'string');
  // LIKE wildcards typed by the user are searched for literally by dropping them.
  const text = String(keyword)
    .trim()
    .replace(/[%_\\]/g, '');
  if (!text) return null;
  return { [Op.or]: fields.map((f) => ({ [f]: { [Op.like]: `%${text}%` } })) };
}

/** The org-wide view of a resource for the caller's organisation (no warehouse narrowing). */
export function orgRepo(ctx: PluginServerContext, resource: string, call: RequestContext) {
  if (call.orgId === null) throw new ApiError(ErrorCode.orgNotAllowed, 'server.errors.10007', {}, 403);
  return ctx.repo(resource, ctx.systemContext(call.orgId, call.language));
}

/**
 * Appends a log row inside the caller's transaction (the write and its log commit together).
 * The organisation comes from the context, like every repository write.
 */
export async function appendLog(
  ctx: PluginServerContext,
  resource: string,
  call: RequestContext,
  values: Record<string, unknown>,
  transaction: Transaction,
): Promise<void> {
  await ctx.repo(resource, call).insertMany([{ ...values, time: new Date(), operator: call.user?.username ?? null }], { transaction });
}

/** appendLog for many rows: multi-row inserts (import chunks), one time stamp for all. */
export async function appendLogs(
  ctx: PluginServerContext,
  resource: string,
  call: RequestContext,
  rows: Array<Record<string, unknown>>,
  transaction: Transaction,
): Promise<void> {
  if (!rows.length) return;
  const time = new Date();
  await ctx.repo(resource, call).insertMany(
    rows.map((values) => ({ ...values, time, operator: call.user?.username ?? null })),
    { transaction },
  );
}

export const str = (v: unknown): string | null => (v === undefined || v === null ? null : String(v));
