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
  const text = String(keyword).trim().replace(/[%_\\]/g, '');
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
  const repo = ctx.repo(resource, call);
  await repo.model.create(
    { ...values, orgId: call.orgId, time: new Date(), operator: call.user?.username ?? null, createdBy: call.user?.id ?? null, updatedBy: call.user?.id ?? null },
    { transaction },
  );
}

/**
 * appendLog for many rows: one multi-row insert (import chunks). Rows go straight to the query
 * interface — mapped to columns through the model's attributes and setters — instead of through
 * bulkCreate, which builds a Model instance per log row only to read its values back out.
 */
export async function appendLogs(
  ctx: PluginServerContext,
  resource: string,
  call: RequestContext,
  rows: Array<Record<string, unknown>>,
  transaction: Transaction,
): Promise<void> {
  if (!rows.length) return;
  const model = ctx.repo(resource, call).model;
  const now = new Date();
  const stamp = { orgId: call.orgId, time: now, operator: call.user?.username ?? null, createdBy: call.user?.id ?? null, updatedBy: call.user?.id ?? null, createdAt: now, updatedAt: now };
  type Attribute = { field?: string; set?: (this: { setDataValue(k: string, v: unknown): void }, v: unknown) => void };
  const attributes = model.getAttributes() as Record<string, Attribute>;
  const records = rows.map((values) => {
    const row: Record<string, unknown> = { ...values, ...stamp };
    const out: Record<string, unknown> = {};
    for (const [name, attr] of Object.entries(attributes)) {
      if (row[name] === undefined) continue;
      const field = attr.field ?? name;
      if (attr.set) attr.set.call({ setDataValue: (_k, v) => (out[field] = v) }, row[name]);
      else out[field] = row[name];
    }
    return out;
  });
  const byField = Object.fromEntries(Object.entries(attributes).map(([name, attr]) => [attr.field ?? name, attr]));
  await ctx.db.getQueryInterface().bulkInsert(model.getTableName() as string, records, { transaction }, byField as never);
}

export const str = (v: unknown): string | null => (v === undefined || v === null ? null : String(v));
