/**
 * Document flows (metadata `source`, children `scan`; docs/METADATA.md "Document flows"):
 *
 * - a document made from a source document: the source must be in one of the declared
 *   statuses, the header fields it gives are filled in (and must agree when typed), the
 *   create form asks `<prefix>/prefill` for them, and the new document starts with the
 *   source's lines (a receipt starts with what was shipped, each line "expected");
 * - scanning (`<line prefix>/scan`): keys or containers name lines of one document, the line
 *   step runs on the ones still to do, a key not on the document joins it as an extra line
 *   when declared, and every key that cannot be taken is answered with its reason — the good
 *   ones are recorded, so a receiver scans again and again, partially, until done.
 */
import {
  fieldLabelKey,
  resourceApiPrefix,
  resourceLabelKey,
  rollUpFields,
  sourcePrefillPath,
  type ChildrenDef,
  type FieldDef,
  type ResourceDef,
} from '@rti/metadata';
import { Op, type Transaction, type WhereOptions } from 'sequelize';
import { retryingTransaction } from '../db/retry';
import { ApiError, ErrorCode } from '../http/api-error';
import { readId, readIds } from '../http/params';
import type { CallDef, RequestContext } from '../http/types';
import { tKey } from '../i18n/translator';
import { fieldError, typeError } from './errors';
import { validateValue } from './validate';
import type { DocumentEngine } from './documents';
import type { HookRegistry } from './hooks';
import { ScopedRepository, type ResourceHost } from './repository';
import type { Row } from './serialize';
import { readSource } from './source';
import { declaredFilter } from './filters';
import { notHeldWhere } from './scope';
import { boundRepos, runStepFromCode, type TransitionDeps } from './transitions';

/** keys one scan call may carry (a scanner's batch, a pasted list) */
export const MAX_SCAN = 1000;

const same = (a: unknown, b: unknown) => a !== null && a !== undefined && String(a) === String(b);
const blank = (v: unknown) => v === undefined || v === null || v === '';

/** A refused row of a batch: SPEC §8 reason, error code and the message in the caller's language. */
export interface BatchFailure {
  row: number;
  sn: string;
  reason?: number;
  code: number;
  message: string;
}

export interface ScanResult {
  accepted: Array<{ key: string; id: number; status: unknown }>;
  /** reason: twice, done, notOnDocument, unknown, noContainer, containerDone, or rule (a line rule or the step's effect refused it; `code` is its import reason when it names one) */
  refused: Array<{ key: string; reason: string; message: string; code?: number }>;
  header: Row;
}

export class FlowEngine {
  constructor(
    private readonly host: ResourceHost,
    private readonly documents: DocumentEngine,
    private readonly steps: TransitionDeps,
  ) {}

  private get meta() {
    return this.host.metadata;
  }

  /** Source checks before a document is created, and its lines copied after. */
  install(hooks: HookRegistry): void {
    for (const res of Object.values(this.meta.resources)) {
      const src = res.source;
      if (!src) continue;
      // the header values the source gives, before the create validates (required, warehouse scope)
      hooks.fill(res.name, async (body, ctx) => {
        const id = body[src.field];
        if (typeof id !== 'number' || !Number.isInteger(id) || id < 1) return body;
        const repo = new ScopedRepository(this.host, this.meta.resources[src.resource], ctx);
        const [source] = await repo.rows({ id }, { attributes: ['id', ...Object.values(src.header ?? {})] });
        if (!source) return body; // the field's reference check answers
        const filled = { ...body };
        for (const [mine, theirs] of Object.entries(src.header ?? {})) if (blank(filled[mine])) filled[mine] = source[theirs] ?? null;
        return filled;
      });
      hooks.before('create', res.name, async (e) => {
        const data = e.data!;
        if (blank(data[src.field])) return; // the field's own rule (required) answers
        const source = await readSource(this.host, res, data[src.field], e.ctx, e.transaction);
        for (const [mine, theirs] of Object.entries(src.header ?? {})) {
          const value = source[theirs];
          if (blank(data[mine])) data[mine] = value ?? null;
          else if (!blank(value) && !same(data[mine], value)) {
            const f = res.fields.find((x) => x.name === mine) ?? ({ name: mine } as FieldDef);
            throw new ApiError(ErrorCode.validation, 'server.flows.sourceMismatch', {
              field: tKey(fieldLabelKey(f)),
              expected: String(source[`${theirs}Label`] ?? value),
              source: tKey(resourceLabelKey(this.meta.resources[src.resource])),
              title: this.title(this.meta.resources[src.resource], source),
            });
          }
        }
      });
      if (src.lines) {
        hooks.after('create', res.name, async (e) => {
          const row = e.row!;
          if (blank(row[src.field])) return;
          await this.copyLines(res, Number(row.id), Number(row[src.field]), e.ctx, e.transaction);
          // the answer shows the roll-ups of the lines it starts with
          const fields = rollUpFields(res);
          if (fields.length) {
            const [fresh] = await boundRepos(this.host, e.ctx, e.transaction)(res.name).rows({ id: row.id }, { attributes: fields });
            Object.assign(row, fresh);
          }
        });
      }
    }
  }

  private title(res: ResourceDef, row: Row): string {
    return String(row[res.titleField] ?? `#${row.id}`);
  }

  /** The source's lines as this document's first lines: one read, one multi-row insert. */
  private async copyLines(res: ResourceDef, headerId: number, sourceId: number, ctx: RequestContext, transaction: Transaction): Promise<void> {
    const spec = res.source!.lines!;
    const sourceRes = this.meta.resources[res.source!.resource];
    const fromChild = sourceRes.children!.find((c) => c.resource === spec.from)!;
    const intoChild = res.children!.find((c) => c.resource === spec.child)!;
    const repos = boundRepos(this.host, ctx, transaction);
    const where: Record<string, unknown> = { [fromChild.foreignKey]: sourceId };
    for (const [f, vs] of Object.entries(spec.where ?? {})) where[f] = { [Op.in]: vs };
    const lines = await repos(spec.from).rows(where, { attributes: ['id', ...new Set(Object.values(spec.copy))], order: [['id', 'ASC']] });
    if (!lines.length) return;
    await repos(spec.child).insertMany(
      lines.map((l) => ({
        ...Object.fromEntries(Object.entries(spec.copy).map(([mine, theirs]) => [mine, l[theirs] ?? null])),
        ...spec.set,
        [intoChild.foreignKey]: headerId,
      })),
    );
    await this.documents.rollUpHeaders(spec.child, [headerId], ctx, transaction);
  }

  /** `<prefix>/prefill`: the header values the chosen source gives (the create form's defaults). */
  async prefill(res: ResourceDef, body: Record<string, unknown>, ctx: RequestContext): Promise<Record<string, unknown>> {
    const src = res.source!;
    const id = readId(body, src.field);
    if (id === undefined) return { defaults: {} };
    const source = await readSource(this.host, res, id, ctx, undefined);
    const defaults = Object.fromEntries(Object.entries(src.header ?? {}).map(([mine, theirs]) => [mine, source[theirs] ?? null]));
    const labels = Object.fromEntries(
      Object.entries(src.header ?? {})
        .filter(([, theirs]) => source[`${theirs}Label`] !== undefined)
        .map(([mine, theirs]) => [`${mine}Label`, source[`${theirs}Label`]]),
    );
    let lines: number | undefined;
    if (src.lines) {
      const fromChild = this.meta.resources[src.resource].children!.find((c) => c.resource === src.lines!.from)!;
      const where: Record<string, unknown> = { [fromChild.foreignKey]: id };
      for (const [f, vs] of Object.entries(src.lines.where ?? {})) where[f] = { [Op.in]: vs };
      lines = await new ScopedRepository(this.host, this.meta.resources[src.lines.from], ctx).count(where);
    }
    return { defaults, labels, lines };
  }

  /** `<line prefix>/scan { <foreign key>, keys?, containers? }` (see the file's comment). */
  async scan(header: ResourceDef, child: ChildrenDef, body: Record<string, unknown>, ctx: RequestContext): Promise<ScanResult> {
    const spec = child.scan!;
    const lineRes = this.meta.resources[child.resource];
    const headerId = readId(body, child.foreignKey, {
      required: true,
      label: fieldLabelKey(lineRes.fields.find((f) => f.name === child.foreignKey) ?? { name: child.foreignKey }),
    })!;
    const keyField = lineRes.fields.find((f) => f.name === spec.key)!;
    const keys = this.keyList(body, 'keys', keyField);
    const containerField = spec.container ? lineRes.fields.find((f) => f.name === spec.container) : undefined;
    const containers = containerField ? this.keyList(body, 'containers', containerField) : [];
    if (!keys.length && !containers.length) throw fieldError(keyField, 'required', {}, 200);
    const step = lineRes.transitions!.find((t) => t.name === spec.step)!;
    const statusField = lineRes.fields.find((f) => f.name === step.field)!;
    const t = (key: string, params: Record<string, unknown>) => this.translate(ctx, key, params);
    const statusLabel = (v: unknown) => {
      const e = (this.meta.enums[statusField.enum ?? ''] ?? []).find((x) => same(x.value, v));
      return e ? t(e.label, {}) : String(v);
    };

    return retryingTransaction(this.host.db.sequelize, async (transaction) => {
      const repos = boundRepos(this.host, ctx, transaction);
      // the header's row lock: two scanners of one document take turns, and each sees the other's lines
      const [head] = await repos(header.name).rows({ id: headerId }, { lock: 'update' });
      if (!head) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
      const title = String(head[header.titleField] ?? `#${headerId}`);
      const accepted: ScanResult['accepted'] = [];
      const refused: ScanResult['refused'] = [];
      const refuse = (key: string, reason: string, params: Record<string, unknown> = {}) =>
        refused.push({ key, reason, message: t(`server.flows.scan.${reason}`, { key, title, resource: t(resourceLabelKey(header), {}), ...params }) });

      // Keys: each once per batch; the lines holding them; the ones the step may still take.
      const seen = new Set<string>();
      const unique: string[] = [];
      for (const k of keys) {
        if (seen.has(k)) refuse(k, 'twice');
        else {
          seen.add(k);
          unique.push(k);
        }
      }
      const lines = unique.length
        ? await repos(child.resource).rows(
            { [child.foreignKey]: headerId, [spec.key]: { [Op.in]: unique } },
            { attributes: ['id', spec.key, step.field], lock: 'update' },
          )
        : [];
      const byKey = new Map(lines.map((l) => [String(l[spec.key]), l]));
      const todo: Array<{ key: string; id: number }> = [];
      const unknown: string[] = [];
      for (const k of unique) {
        const line = byKey.get(k);
        if (!line) unknown.push(k);
        else if (step.from.some((v) => same(v, line[step.field]))) todo.push({ key: k, id: Number(line.id) });
        else refuse(k, 'done', { status: statusLabel(line[step.field]) });
      }
      // Containers: every line of the container still to do.
      for (const c of containers) {
        const inContainer = await repos(child.resource).rows(
          { [child.foreignKey]: headerId, [spec.container!]: c },
          { attributes: ['id', spec.key, step.field], lock: 'update' },
        );
        const open = inContainer.filter((l) => step.from.some((v) => same(v, l[step.field])) && !todo.some((x) => x.id === Number(l.id)));
        if (!inContainer.length) refuse(c, 'noContainer');
        else if (!open.length) refuse(c, 'containerDone');
        for (const l of open) todo.push({ key: String(l[spec.key]), id: Number(l.id) });
      }
      // Keys not on the document join it as extra lines (when declared and the row is found).
      const extras: Array<{ key: string; id: number }> = [];
      if (unknown.length && spec.extra !== undefined && spec.by) {
        const refField = lineRes.fields.find((f) => f.name === spec.by!.field)!;
        const found = await repos(refField.ref!.resource).rows({ [spec.by.key]: { [Op.in]: unknown } }, { attributes: ['id', spec.by.key] });
        const targetOf = new Map(found.map((r) => [String(r[spec.by!.key]), Number(r.id)]));
        for (const k of unknown) {
          const target = targetOf.get(k);
          if (target === undefined) {
            refuse(k, 'unknown');
            continue;
          }
          // the document's line rules (a carrier's code, its warehouse) judge each extra line alone
          const values: Record<string, unknown> = { [child.foreignKey]: headerId, [spec.by.field]: target, [spec.key]: k, [step.field]: step.from[0] };
          const problem = await this.documents.checkLine(header, child, head, values, ctx, transaction);
          if (problem) {
            refused.push(this.ruleRefusal(k, problem, ctx));
            continue;
          }
          await repos(child.resource).insertMany([values]);
          const [line] = await repos(child.resource).rows({ [child.foreignKey]: headerId, [spec.key]: k }, { attributes: ['id'] });
          extras.push({ key: k, id: Number(line.id) });
        }
      } else for (const k of unknown) refuse(k, 'notOnDocument');

      // The step over all of them at once; a refusal of the batch is redone key by key, so
      // each key gets its own reason and the others are still recorded.
      const all = [...todo, ...extras];
      const done = await this.stepInBatches(lineRes.name, spec.step, all, ctx, transaction, (item, err) => refused.push(this.ruleRefusal(item.key, err, ctx)));
      const extraIds = extras.filter((x) => done.has(x.id)).map((x) => x.id);
      if (extraIds.length) {
        // engine-owned: an extra line went through the step like the others and is marked as such
        await this.host.db.models[lineRes.name].update(
          { [step.field]: spec.extra },
          { where: repos(child.resource).where({ id: { [Op.in]: extraIds } }), transaction },
        );
        await this.documents.rollUpHeaders(child.resource, [headerId], ctx, transaction);
      }
      // extra lines whose step was refused leave no trace
      const dropped = extras.filter((x) => !done.has(x.id)).map((x) => x.id);
      if (dropped.length) {
        await repos(child.resource).deleteWhere({ id: { [Op.in]: dropped } });
        await this.documents.rollUpHeaders(child.resource, [headerId], ctx, transaction);
      }
      for (const item of all) if (done.has(item.id)) accepted.push({ key: item.key, id: item.id, status: extraIds.includes(item.id) ? spec.extra : step.to });
      const scoped = new ScopedRepository(this.host, header, ctx);
      const [final] = await scoped.serialize([await scoped.find(headerId, transaction)], transaction);
      return { accepted, refused, header: final };
    });
  }

  /** `scan` by the line resource's name (the plugin API's entry). */
  scanLines(lineResource: string, body: Record<string, unknown>, ctx: RequestContext): Promise<ScanResult> {
    for (const res of Object.values(this.meta.resources)) {
      const child = res.children?.find((c) => c.resource === lineResource && c.scan);
      if (child) return this.scan(res, child, body, ctx);
    }
    throw new Error(`documents.scan: "${lineResource}" declares no scan`);
  }

  /** `candidates` by the line resource's name, for a plugin call answering under SPEC's own path. */
  candidatesOf(lineResource: string, q: Parameters<FlowEngine['candidates']>[2], ctx: RequestContext): Promise<{ list: Row[]; total: number }> {
    for (const res of Object.values(this.meta.resources)) {
      const child = res.children?.find((c) => c.resource === lineResource && c.batch?.candidates);
      if (child) return this.candidates(res, child, q, ctx);
    }
    throw new Error(`documents.candidates: "${lineResource}" declares no batch candidates`);
  }

  /** Runs the step over the items; on a refusal, one by one in savepoints. Answers the ids done. */
  private async stepInBatches(
    resource: string,
    step: string,
    items: Array<{ key: string; id: number }>,
    ctx: RequestContext,
    transaction: Transaction,
    refused: (item: { key: string; id: number }, err: ApiError) => void,
  ): Promise<Set<number>> {
    const done = new Set<number>();
    if (!items.length) return done;
    const attempt = (ids: number[]) => this.host.db.sequelize.transaction({ transaction }, (sp) => runStepFromCode(this.steps, ctx, sp, resource, step, ids));
    try {
      await attempt(items.map((i) => i.id));
      for (const i of items) done.add(i.id);
      return done;
    } catch (err) {
      if (!(err instanceof ApiError) || items.length === 1) {
        if (err instanceof ApiError) refused(items[0], err);
        else throw err;
        return done;
      }
    }
    for (const item of items) {
      try {
        await attempt([item.id]);
        done.add(item.id);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        refused(item, err);
      }
    }
    return done;
  }

  private ruleRefusal(key: string, err: ApiError, ctx: RequestContext): ScanResult['refused'][number] {
    const code = typeof err.params.importCode === 'number' ? err.params.importCode : undefined;
    return { key, reason: 'rule', message: this.messageOf(err, ctx), ...(code === undefined ? {} : { code }) };
  }

  private messageOf(err: ApiError, ctx: RequestContext): string {
    return this.translate(ctx, err.messageKey, err.params);
  }

  private translate(ctx: RequestContext, key: string, params: Record<string, unknown>): string {
    return this.host.t ? this.host.t(ctx.language, key, params as never) : key;
  }

  /** Strings of a key list (trimmed, non-empty), bounded in count and length. */
  private keyList(body: Record<string, unknown>, name: string, field: FieldDef): string[] {
    return this.rawKeys(body, name, field).filter(Boolean);
  }

  /**
   * `<line prefix>/batch/add { <foreign key>, <keys>?, <ids>?, …values }` (children `batch`):
   * lines added one row at a time (a refused row fails alone, in its own transaction), each
   * answered with its reason from the line resource's import codes — the same reasons its
   * import gives — and the document's message in the caller's language.
   */
  async batchAdd(
    header: ResourceDef,
    child: ChildrenDef,
    body: Record<string, unknown>,
    ctx: RequestContext,
  ): Promise<{ added: number; failed: BatchFailure[] }> {
    const spec = child.batch!;
    const lineRes = this.meta.resources[child.resource];
    const fkField = lineRes.fields.find((f) => f.name === child.foreignKey) ?? ({ name: child.foreignKey } as FieldDef);
    const headerId = readId(body, child.foreignKey, { required: true, label: fieldLabelKey(fkField) })!;
    const byField = lineRes.fields.find((f) => f.name === spec.by.field)!;
    const target = this.meta.resources[byField.ref!.resource];
    const keyField = target.fields.find((f) => f.name === spec.by.key) ?? ({ name: spec.by.key } as FieldDef);
    const keys = this.rawKeys(body, spec.keys ?? 'keys', keyField);
    const ids = readIds(body, spec.ids ?? 'ids', { max: MAX_SCAN }) ?? [];
    if (!keys.length && !ids.length) throw fieldError(keyField, 'required', {}, 200);
    if (keys.length + ids.length > MAX_SCAN) throw new ApiError(ErrorCode.validation, 'server.validation.limit', { max: MAX_SCAN }, 400);
    await new ScopedRepository(this.host, header, ctx).find(headerId);
    // the values every added line gets, validated once; a bad one refuses every row with its reason
    const values: Record<string, unknown> = {};
    let badValue: { field: FieldDef; err: ApiError } | undefined;
    for (const name of spec.values ?? []) {
      const f = lineRes.fields.find((x) => x.name === name)!;
      if (body[name] === undefined || body[name] === null) continue;
      try {
        values[name] = validateValue(f, body[name], this.meta.enums);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        badValue ??= { field: f, err };
      }
    }
    const targets = new ScopedRepository(this.host, target, ctx);
    const byKey = keys.length
      ? new Map(
          (await targets.rows({ [spec.by.key]: { [Op.in]: [...new Set(keys.filter(Boolean))] } }, { attributes: ['id', spec.by.key] })).map((r) => [
            String(r[spec.by.key]),
            r,
          ]),
        )
      : new Map<string, Row>();
    const byId = ids.length
      ? new Map((await targets.rows({ id: { [Op.in]: ids } }, { attributes: ['id', spec.by.key] })).map((r) => [Number(r.id), r]))
      : new Map<number, Row>();
    const rows = [
      ...keys.map((key) => ({ key, row: byKey.get(key) })),
      ...ids.map((id) => ({ key: String(byId.get(id)?.[spec.by.key] ?? id), row: byId.get(id) })),
    ];
    const codes = lineRes.import?.codes ?? {};
    const reasonOf = (field: string, problem: 'required' | 'notFound' | 'duplicate' | 'invalid' | 'exists') => codes[field]?.[problem];
    const failed: BatchFailure[] = [];
    const refuse = (i: number, key: string, reason: number | undefined, code: number, message: string) =>
      failed.push({ row: i + 1, sn: key, ...(reason === undefined ? {} : { reason }), code, message });
    const reasonText = (reason: number | undefined, fallback: string) => {
      const label = (this.meta.enums[lineRes.import?.errors ?? ''] ?? []).find((e) => e.value === reason)?.label;
      return label ? this.translate(ctx, label, {}) : fallback;
    };
    const lines = new ScopedRepository(this.host, lineRes, ctx);
    const seen = new Set<number>();
    let added = 0;
    for (const [i, r] of rows.entries()) {
      if (!r.key) {
        const reason = reasonOf(spec.by.field, 'required');
        refuse(
          i,
          r.key,
          reason,
          ErrorCode.validation,
          reasonText(reason, this.translate(ctx, 'server.validation.required', { field: tKey(fieldLabelKey(keyField)) })),
        );
        continue;
      }
      if (!r.row) {
        const reason = reasonOf(spec.by.field, 'notFound');
        refuse(i, r.key, reason, ErrorCode.notFound, reasonText(reason, this.translate(ctx, 'server.errors.10002', {})));
        continue;
      }
      const id = Number(r.row.id);
      if (seen.has(id)) {
        const reason = reasonOf(spec.by.field, 'duplicate');
        refuse(i, r.key, reason, ErrorCode.duplicate, reasonText(reason, this.translate(ctx, 'server.errors.duplicate', {})));
        continue;
      }
      seen.add(id);
      if (badValue) {
        const reason = reasonOf(badValue.field.name, 'invalid');
        refuse(i, r.key, reason, badValue.err.code, reason === undefined ? this.messageOf(badValue.err, ctx) : reasonText(reason, ''));
        continue;
      }
      try {
        // One transaction per row. The key's row is locked before the document's own locks, so a
        // concurrent add of it to another document waits holding nothing, then the exclusive
        // check sees this line (a carrier on one open order); a deadlock victim is run again.
        await retryingTransaction(this.host.db.sequelize, async (transaction) => {
          await boundRepos(this.host, ctx, transaction)(target.name).rows({ id }, { attributes: ['id'], lock: 'update' });
          await lines.create({ ...values, [child.foreignKey]: headerId, [spec.by.field]: id }, { transaction });
        });
        added++;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        // one rule, one reason: the refusal carries its import reason; a repeated line is the key's duplicate
        const own = typeof err.params.importCode === 'number' ? err.params.importCode : undefined;
        refuse(i, r.key, own ?? (err.code === ErrorCode.duplicate ? reasonOf(spec.by.field, 'duplicate') : undefined), err.code, this.messageOf(err, ctx));
      }
    }
    return { added, failed };
  }

  /** `<line prefix>/batch/update { ids, …values }`: the chosen lines get the values, all or none. */
  async batchUpdate(child: ChildrenDef, body: Record<string, unknown>, ctx: RequestContext): Promise<{ updated: number }> {
    const spec = child.batch!;
    const lineRes = this.meta.resources[child.resource];
    const ids = readIds(body, 'ids', { required: true, max: MAX_SCAN })!;
    const values: Record<string, unknown> = {};
    for (const name of spec.values ?? []) if (body[name] !== undefined) values[name] = body[name];
    if (!Object.keys(values).length) {
      const first = lineRes.fields.find((f) => f.name === spec.values?.[0]) ?? ({ name: 'values' } as FieldDef);
      throw fieldError(first, 'required', {}, 200);
    }
    const lines = new ScopedRepository(this.host, lineRes, ctx);
    // through the repository, line by line in one transaction: each passes the document's freeze and field rules
    await retryingTransaction(this.host.db.sequelize, async (transaction) => {
      for (const id of ids) await lines.update({ ...values, id }, { transaction });
    });
    return { updated: ids.length };
  }

  /** Strings of a key list as given (trimmed; empty kept: a row without its key has a reason). */
  private rawKeys(body: Record<string, unknown>, name: string, field: FieldDef): string[] {
    const raw = body[name];
    if (raw === undefined || raw === null) return [];
    if (!Array.isArray(raw)) throw typeError({ ...field, name }, 'list');
    if (raw.length > MAX_SCAN) throw new ApiError(ErrorCode.validation, 'server.validation.limit', { max: MAX_SCAN }, 400);
    return raw.map((v) => {
      if (typeof v !== 'string' && typeof v !== 'number') throw typeError(field, 'string');
      const s = String(v).trim();
      if (field.maxLength && s.length > field.maxLength) throw fieldError(field, 'maxLength', { max: field.maxLength });
      return s;
    });
  }

  /**
   * `<line prefix>/batch/candidates` (children `batch.candidates`): rows of the target resource a
   * line may still take, in the caller's scope, paged by the key (see BatchCandidatesDef).
   */
  async candidates(
    parent: ResourceDef,
    child: ChildrenDef,
    q: { headerId: number; search?: string; narrow?: Record<string, unknown>; offset: number; limit: number },
    ctx: RequestContext,
  ): Promise<{ list: Row[]; total: number }> {
    const spec = child.batch!;
    const cand = spec.candidates ?? {};
    const lineRes = this.meta.resources[child.resource];
    const target = this.meta.resources[lineRes.fields.find((f) => f.name === spec.by.field)!.ref!.resource];
    // the header in the caller's scope (10002 otherwise), for its matched field
    const header = await new ScopedRepository(this.host, parent, ctx).find(q.headerId);
    const and: WhereOptions[] = [];
    if (cand.filter) and.push(declaredFilter(this.meta, target.name, cand.filter));
    if (cand.match) and.push({ [cand.match.target]: header.get(cand.match.header) ?? null });
    if (ctx.orgId !== null)
      and.push(
        notHeldWhere({
          header: parent,
          lines: lineRes,
          foreignKey: child.foreignKey,
          key: spec.by.field,
          statuses: child.exclusive ? (child.exclusive.while as Array<string | number>) : [],
          lineWhere: child.exclusive?.lines ?? {},
          orgId: ctx.orgId,
          also: q.headerId,
        }),
      );
    for (const [f, v] of Object.entries(q.narrow ?? {})) if (v !== undefined && v !== null) and.push({ [f]: v });
    const search = q.search?.trim().replace(/[%_\\]/g, '');
    if (search) and.push({ [spec.by.key]: { [Op.like]: `%${search}%` } });
    const targets = new ScopedRepository(this.host, target, ctx);
    const where = { [Op.and]: and };
    const [total, rows] = await Promise.all([
      targets.count(where),
      targets.findAll({ where, order: [[spec.by.key, 'ASC']], offset: q.offset, limit: q.limit }),
    ]);
    return { list: await targets.serialize(rows), total };
  }

  /** The flows' calls: each source's prefill, each scanned line resource's scan, batch add and update. */
  calls(): CallDef[] {
    const out: CallDef[] = [];
    for (const res of Object.values(this.meta.resources)) {
      if (res.source) out.push({ path: sourcePrefillPath(res), resource: res.name, handler: ({ body, ctx }) => this.prefill(res, body, ctx) });
      for (const child of res.children ?? []) {
        const lineRes = this.meta.resources[child.resource];
        const prefix = resourceApiPrefix(lineRes);
        if (child.scan) out.push({ path: `${prefix}/scan`, resource: lineRes.name, handler: ({ body, ctx }) => this.scan(res, child, body, ctx) });
        if (child.batch) {
          out.push({ path: `${prefix}/batch/add`, resource: lineRes.name, handler: ({ body, ctx }) => this.batchAdd(res, child, body, ctx) });
          out.push({ path: `${prefix}/batch/update`, resource: lineRes.name, handler: ({ body, ctx }) => this.batchUpdate(child, body, ctx) });
          if (child.batch.candidates)
            out.push({
              path: `${prefix}/batch/candidates`,
              resource: lineRes.name,
              input: {
                [child.foreignKey]: { type: 'ref', required: true },
                [child.batch.by.key]: { type: 'string', maxLength: 64 },
                ...Object.fromEntries((child.batch.candidates.narrow ?? []).map((f) => [f, { type: 'ref' }])),
              },
              paging: true,
              handler: ({ input = {}, ctx }) =>
                this.candidates(
                  res,
                  child,
                  {
                    headerId: input[child.foreignKey] as number,
                    search: input[child.batch!.by.key] as string | undefined,
                    narrow: Object.fromEntries((child.batch!.candidates!.narrow ?? []).map((f) => [f, input[f]])),
                    offset: input.offset as number,
                    limit: input.limit as number,
                  },
                  ctx,
                ),
            });
        }
      }
    }
    return out;
  }
}
