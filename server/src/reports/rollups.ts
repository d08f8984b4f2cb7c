/**
 * Figures kept ahead of the read (`ctx.rollups`, docs/PLUGINS.md "Roll-ups"). A plugin declares
 * sums over a history resource's rows per key fields; the platform keeps them per organisation
 * in a store resource the plugin declares in its metadata (fields `grain`, `period`, the keys and
 * one numeric field per sum) at two grains: a row per (day, keys) and per (month, keys), days and
 * months cut in the organisation's time zone. A read of a year sums twelve month rows per key
 * plus the day rows of the months it only partly covers, instead of a year of history rows.
 *
 * Kept by catching up, on every instance alike (nothing held in memory between calls): the
 * source rows written since the organisation's mark (their ids above `sys_rollup_state.mark`)
 * name the days they touch — and, for sums reading the row before (`previous`), the days of the
 * later rows of the same sequence — whose day rows are recomputed from the history, then the
 * month rows of those months from the day rows, and the mark moves on. Recomputing is
 * idempotent (delete and insert in one transaction), so two instances catching up at once write
 * the same rows. A read catches up first (it sees every row written before it), a job once per
 * cluster keeps the backlog small, a delete through the calls recomputes its days, and a change
 * of the organisation's time zone recomputes everything.
 */
import { DataTypes, Op, col, fn, literal, type Model, type ModelStatic, type Sequelize, type Transaction, type WhereOptions } from 'sequelize';
import { registerMigration } from '../db/migrations';
import { retryingTransaction } from '../db/retry';
import type { RequestContext } from '../http/types';
import type { HookRegistry } from '../resources/hooks';
import type { ScopedRepository } from '../resources/repository';
import { DAY_MS, dayOf, dayStart, type Zone } from './time';

export const ROLLUP_STATE_TABLE = 'sys_rollup_state';
/** the job catching every organisation up runs this often (a read catches up too, so this only keeps backlogs short) */
export const ROLLUP_EVERY_MS = 60_000;
/** pending rows above which a catch-up recomputes every day from the first pending row's on, instead of naming days row by row */
const WHOLE_DAYS_ABOVE = 100_000;
/** pending rows read per round trip while naming their days */
const CHUNK = 5_000;
/**
 * An id missing below younger rows may belong to an insert still open (MariaDB hands ids out
 * before commit): the mark stays below it, and the rows above are read again at the next
 * catch-up, until a row after it is this old — then the gap is for good (a rollback, a delete).
 */
const GAP_SETTLE_MS = 5 * 60_000;
/** ids spanned by the young rows' gaps checked at most (wider: the mark waits at the first gap) */
const GAP_CHECK_SPAN = 200_000;
/** sequences looked up per statement for the later rows a pending row changes */
const SEQUENCE_CHUNK = 200;

export interface RollupDef {
  /** unique name, `<plugin>.<what>` */
  name: string;
  /** the history resource summed (org-scoped) */
  source: string;
  /** its datetime field: which day a row counts on */
  time: string;
  /** the store resource (the plugin's metadata): `grain` and `period` strings, the keys, a numeric field per sum */
  store: string;
  /** fields of both resources the sums are kept per; the first also narrows recomputation (a warehouse) */
  keys: string[];
  /** source rows that count (besides the time) */
  where?: WhereOptions;
  /**
   * Per-row SQL columns over the source (the repository's fragments: quoted, epochDays …),
   * computed once per row; `sums` add them up per keys and day. `previous(when, field?)` is the
   * value (default: the time) of the row before this one in its `sequence` among the rows
   * matching `when` — the only look-back a column has, so the days recomputed for a late row
   * are always those of the partition it looks back in.
   */
  columns(source: ScopedRepository, previous: (when: Record<string, number>, field?: string) => string): Record<string, string>;
  /** SQL sums over the columns, one per numeric field of the store: `{ visits: 'SUM(CASE WHEN … THEN 1 ELSE 0 END)' }` */
  sums: Record<string, string>;
  /**
   * The partition a column's `previous` looks back in (`['warehouseId', 'carrierId']`): a row
   * written before later rows of its sequence changes their figures, whose days are recomputed too.
   */
  sequence?: string[];
}

export interface RollupRead {
  /** epoch ms, both included; cut to whole days of the organisation (the days holding from and to) */
  from: number;
  to: number;
  /** store fields to group by (of the keys); none: one row */
  by: string[];
  /** narrows on the keys */
  where?: WhereOptions;
}

export interface RollupAnswer {
  rows: Array<Record<string, number | null>>;
  /** the organisation's days summed, 'YYYY-MM-DD' */
  firstDay: string;
  lastDay: string;
}

export interface Rollup {
  /** the sums over [from, to] per `by` in the caller's scope (their warehouses), after catching up */
  read(call: RequestContext, q: RollupRead): Promise<RollupAnswer>;
  /** brings the organisation's store up to its history (what a read does first) */
  catchUp(orgId: number): Promise<{ days: number; rows: number }>;
  /** recomputes the organisation's days firstDay..lastDay ('YYYY-MM-DD') from the history: a repair after writes outside the calls (bulk SQL) */
  recompute(orgId: number, firstDay: string, lastDay: string): Promise<number>;
}

interface StateRow {
  name: string;
  orgId: number;
  mark: number;
  /** epoch ms of the latest row counted: a pending row after it is an append, which changes no counted row */
  lastAt: number | null;
}

registerMigration({
  name: '2026-11-27-rollup-state',
  async up({ queryInterface: qi }) {
    await qi.createTable(ROLLUP_STATE_TABLE, {
      name: { type: DataTypes.STRING(200), allowNull: false, primaryKey: true },
      org_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      mark: { type: DataTypes.BIGINT, allowNull: false },
    });
  },
  async down({ queryInterface: qi }) {
    await qi.dropTable(ROLLUP_STATE_TABLE);
  },
});
registerMigration({
  name: '2026-11-27-rollup-state-last-at',
  async up({ queryInterface: qi }) {
    await qi.addColumn(ROLLUP_STATE_TABLE, 'last_at', { type: DataTypes.BIGINT, allowNull: true });
  },
  async down({ queryInterface: qi }) {
    await qi.removeColumn(ROLLUP_STATE_TABLE, 'last_at');
  },
});

export interface RollupHost {
  sequelize: Sequelize;
  repo(resource: string, ctx: RequestContext): ScopedRepository;
  systemContext(orgId: number): RequestContext;
  zoneOf(orgId: number | null): Promise<string>;
  organisationsWith(resource: string): Promise<number[]>;
  hooks: HookRegistry;
  resources(): Record<string, { fields: Array<{ name: string }>; indexes?: string[][] }>;
}

const monthOf = (day: string) => day.slice(0, 7);
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
const lastDayOfMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};

export class RollupRegistry {
  private readonly defs = new Map<string, RollupDef>();
  private readonly state: ModelStatic<Model<StateRow, StateRow>>;
  /** one catch-up per (roll-up, organisation) at a time on this instance; reads wait for it */
  private readonly running = new Map<string, Promise<unknown>>();

  constructor(private readonly host: RollupHost) {
    this.state =
      (host.sequelize.models[ROLLUP_STATE_TABLE] as ModelStatic<Model<StateRow, StateRow>> | undefined) ??
      host.sequelize.define<Model<StateRow, StateRow>>(
        ROLLUP_STATE_TABLE,
        {
          name: { type: DataTypes.STRING(200), primaryKey: true, allowNull: false },
          orgId: { type: DataTypes.INTEGER, primaryKey: true, allowNull: false, field: 'org_id' },
          mark: { type: DataTypes.BIGINT, allowNull: false },
          lastAt: { type: DataTypes.BIGINT, allowNull: true, field: 'last_at' },
        },
        { tableName: ROLLUP_STATE_TABLE, timestamps: false },
      );
    // another zone cuts other days: everything is recomputed at the next catch-up
    host.hooks.after('update', 'organization', async (e) => {
      const id = Number(e.row?.id ?? e.previous?.id);
      const zone = (r: unknown) => (r as Record<string, unknown> | undefined)?.timeZone;
      if (!Number.isFinite(id) || zone(e.row) === zone(e.previous)) return;
      // in the change's transaction: a read right after the change already recomputes
      await this.state.destroy({ where: { orgId: id }, transaction: e.transaction });
    });
  }

  names(): string[] {
    return [...this.defs.keys()];
  }

  define(def: RollupDef, owner: string): Rollup {
    if (!def.name.startsWith(`${owner}.`)) throw new Error(`roll-up "${def.name}" of plugin ${owner} must be named "${owner}.<name>"`);
    if (this.defs.has(def.name)) throw new Error(`roll-up "${def.name}" is defined twice`);
    const resources = this.host.resources();
    const store = resources[def.store];
    if (!store) throw new Error(`roll-up "${def.name}": no store resource "${def.store}"`);
    if (!resources[def.source]) throw new Error(`roll-up "${def.name}": no source resource "${def.source}"`);
    const fields = new Set(store.fields.map((f) => f.name));
    // a read is a range of (grain, period) per organisation: without this index it scans the store
    const lead = ['grain', 'period', ...def.keys];
    if (!(store.indexes ?? []).some((ix) => lead.every((f, i) => ix[i] === f)))
      throw new Error(
        `roll-up "${def.name}": store "${def.store}" needs an index beginning ${JSON.stringify(lead)} (and the sums after them, to cover the read)`,
      );
    for (const f of ['grain', 'period', ...def.keys, ...Object.keys(def.sums)])
      if (!fields.has(f)) throw new Error(`roll-up "${def.name}": store "${def.store}" has no field "${f}"`);
    this.defs.set(def.name, def);
    // a row deleted through the calls: its day (and its sequence's later rows' days) recomputed in the same transaction
    this.host.hooks.after('delete', def.source, async (e) => {
      const row = e.previous ?? e.row;
      const orgId = e.ctx.orgId;
      if (!row || !orgId || !e.transaction) return;
      const zone = await this.host.zoneOf(orgId);
      const dirty = new Map<string, Set<unknown> | 'all'>();
      markDirty(dirty, dayOf(new Date(String(row[def.time])).getTime(), zone), row[def.keys[0]]);
      await this.later(def, orgId, zone, [row], Number.MAX_SAFE_INTEGER, dirty, e.transaction);
      await this.recompute(def, orgId, zone, dirty, e.transaction);
    });
    return this.handle(def);
  }

  /** a defined roll-up by name (benches, tests) */
  get(name: string): Rollup | undefined {
    const def = this.defs.get(name);
    return def && this.handle(def);
  }

  private handle(def: RollupDef): Rollup {
    return {
      read: (call, q) => this.read(def, call, q),
      catchUp: (orgId) => this.catchUp(def, orgId),
      recompute: async (orgId, firstDay, lastDay) => {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(firstDay) || !/^\d{4}-\d{2}-\d{2}$/.test(lastDay))
          throw new Error(`roll-up "${def.name}": days ${firstDay}..${lastDay}`);
        const dirty = new Map<string, Set<unknown> | 'all'>();
        for (let d = firstDay; d <= lastDay; d = nextDay(d)) dirty.set(d, 'all');
        return this.recompute(def, orgId, await this.host.zoneOf(orgId), dirty);
      },
    };
  }

  /** every roll-up of every organisation with history (the once-per-cluster job) */
  async catchUpAll(signal?: AbortSignal): Promise<void> {
    for (const def of this.defs.values())
      for (const orgId of await this.host.organisationsWith(def.source)) {
        if (signal?.aborted) return;
        await this.catchUp(def, orgId);
      }
  }

  private catchUp(def: RollupDef, orgId: number): Promise<{ days: number; rows: number }> {
    const key = `${def.name}:${orgId}`;
    const before = this.running.get(key) ?? Promise.resolve();
    // queued behind a running one: the rows written before this call are caught up when it resolves
    const next = before.catch(() => undefined).then(() => this.catchUpNow(def, orgId));
    this.running.set(key, next);
    void next.finally(() => this.running.get(key) === next && this.running.delete(key)).catch(() => undefined);
    return next;
  }

  private async catchUpNow(def: RollupDef, orgId: number): Promise<{ days: number; rows: number }> {
    const sys = this.host.systemContext(orgId);
    const src = this.host.repo(def.source, sys);
    const state = await this.state.findOne({ where: { name: def.name, orgId } });
    const mark = Number(state?.get('mark') ?? 0);
    const lastAt = state?.get('lastAt') === null || state?.get('lastAt') === undefined ? null : Number(state.get('lastAt'));
    const [top] = await src.rows({}, { attributes: ['id'], order: [['id', 'DESC']], limit: 1 });
    const upTo = Number(top?.id ?? 0);
    if (upTo <= mark) return { days: 0, rows: 0 };
    const zone = await this.host.zoneOf(orgId);
    // never caught up (a first start, another time zone since): no day row of before may stay
    if (!state) await this.host.repo(def.store, sys).deleteWhere({});
    const pendingWhere = { ...(def.where ?? {}), id: { [Op.gt]: mark, [Op.lte]: upTo } };
    const pending = await src.count(pendingWhere);
    const dirty = new Map<string, Set<unknown> | 'all'>();
    const timeOf = (r: Record<string, unknown>) => new Date(String(r[def.time])).getTime();
    let latest = lastAt ?? -Infinity;
    // where the mark may move to: below an id not seen yet among younger rows (settledBelow)
    let settled = upTo;
    if (pending > WHOLE_DAYS_ABOVE) {
      // many rows (a first build, an import): every day from the earliest pending row's to the latest row's
      const [span] = await src.rows(pendingWhere, { attributes: [[fn('MIN', col(src.column(def.time))), 'first']] });
      const [last] = await src.rows(def.where ?? {}, { attributes: [def.time], order: [[def.time, 'DESC']], limit: 1 });
      if (span?.first && last) {
        latest = Math.max(latest, timeOf(last));
        const end = dayOf(timeOf(last), zone);
        for (let d = dayOf(new Date(String(span.first)).getTime(), zone); d <= end; d = nextDay(d)) dirty.set(d, 'all');
      }
    } else {
      const model = this.host.sequelize.models[def.source];
      const created = model?.getAttributes().createdAt ? ['createdAt'] : [];
      const young = Date.now() - GAP_SETTLE_MS;
      // ids skipped before a young row of this organisation: (the row before, that row)
      const gaps: Array<[number, number]> = [];
      for (let after = mark; ;) {
        const rows = await src.rows(
          { ...(def.where ?? {}), id: { [Op.gt]: after, [Op.lte]: upTo } },
          { attributes: ['id', def.time, ...created, ...new Set([def.keys[0], ...(def.sequence ?? [])])], order: [['id', 'ASC']], limit: CHUNK },
        );
        if (!rows.length) break;
        for (const r of rows) {
          if (Number(r.id) !== after + 1 && (!created.length || new Date(String(r.createdAt)).getTime() > young)) gaps.push([after, Number(r.id)]);
          after = Number(r.id);
        }
        for (const r of rows) markDirty(dirty, dayOf(timeOf(r), zone), r[def.keys[0]]);
        // only a row no later than the latest counted one can come before counted rows (appends, the usual case, cannot)
        if (mark) await this.later(def, orgId, zone, lastAt === null ? rows : rows.filter((r) => timeOf(r) <= lastAt), mark, dirty);
        for (const r of rows) latest = Math.max(latest, timeOf(r));
      }
      settled = await this.settledBelow(model, gaps, upTo);
    }
    const written = await this.recompute(def, orgId, zone, dirty);
    // the mark only moves forward (another instance may have caught up further meanwhile)
    const at = Number.isFinite(latest) ? latest : null;
    const [moved] = await this.state.update({ mark: settled, lastAt: at }, { where: { name: def.name, orgId, mark: { [Op.lte]: settled } } });
    if (!moved && !state) await this.state.create({ name: def.name, orgId, mark: settled, lastAt: at }).catch(() => undefined);
    return { days: dirty.size, rows: written };
  }

  /**
   * Where the mark may move: below the first id skipped before a young row that no organisation
   * has (its insert may still be open: MariaDB hands ids out before commit). Ids held by other
   * organisations' rows are no gap; their ids only, read unscoped, over the young rows' span.
   */
  private async settledBelow(model: ModelStatic<Model> | undefined, gaps: Array<[number, number]>, upTo: number): Promise<number> {
    if (!gaps.length) return upTo;
    const lo = gaps[0][0];
    const hi = gaps[gaps.length - 1][1];
    if (!model || hi - lo > GAP_CHECK_SPAN) return lo;
    const ids = (await model.findAll({ attributes: ['id'], where: { id: { [Op.gt]: lo, [Op.lt]: hi } }, raw: true })) as unknown as Array<{ id: number }>;
    const present = new Set(ids.map((r) => Number(r.id)));
    for (const [a, b] of gaps) for (let id = a + 1; id < b; id++) if (!present.has(id)) return a;
    return upTo;
  }

  /** the days of rows already counted (id ≤ mark) that follow a changed row in its sequence: their `previous` changed */
  private async later(
    def: RollupDef,
    orgId: number,
    zone: Zone,
    changed: Array<Record<string, unknown>>,
    mark: number,
    dirty: Map<string, Set<unknown> | 'all'>,
    transaction?: Transaction,
  ): Promise<void> {
    if (!def.sequence?.length) return;
    const src = this.host.repo(def.source, this.host.systemContext(orgId));
    const earliest = new Map<string, Record<string, unknown>>();
    for (const r of changed) {
      const k = def.sequence.map((f) => String(r[f])).join(':');
      const e = earliest.get(k);
      if (!e || new Date(String(r[def.time])) < new Date(String(e[def.time]))) earliest.set(k, r);
    }
    const list = [...earliest.values()];
    for (let i = 0; i < list.length; i += SEQUENCE_CHUNK) {
      const or = list.slice(i, i + SEQUENCE_CHUNK).map((r) => ({
        ...Object.fromEntries(def.sequence!.map((f) => [f, r[f] ?? null])),
        [def.time]: { [Op.gt]: new Date(String(r[def.time])) },
      }));
      const found = await src.rows({ ...(def.where ?? {}), id: { [Op.lte]: mark }, [Op.or]: or }, { attributes: [def.time, def.keys[0]], transaction });
      for (const r of found) markDirty(dirty, dayOf(new Date(String(r[def.time])).getTime(), zone), r[def.keys[0]]);
    }
  }

  /** day rows of the dirty days from the history, then month rows of their months from the day rows */
  private async recompute(def: RollupDef, orgId: number, zone: Zone, dirty: Map<string, Set<unknown> | 'all'>, transaction?: Transaction): Promise<number> {
    const sys = this.host.systemContext(orgId);
    const src = this.host.repo(def.source, sys);
    const store = this.host.repo(def.store, sys);
    const part = def.keys[0];
    const narrow = (parts: Set<unknown> | 'all'): WhereOptions => {
      if (parts === 'all') return {};
      const values = [...parts].filter((v) => v !== null && v !== undefined);
      const or: WhereOptions[] = [];
      if (values.length) or.push({ [part]: { [Op.in]: values } });
      if (values.length < parts.size) or.push({ [part]: { [Op.is]: null } });
      return { [Op.or]: or };
    };
    const months = new Map<string, Set<unknown> | 'all'>();
    const inTx = <T>(fn: (t: Transaction) => Promise<T>) => (transaction ? fn(transaction) : retryingTransaction(this.host.sequelize, fn));
    const columns = def.columns(src, (when, field) => {
      if (!def.sequence?.length) throw new Error(`roll-up "${def.name}": a column looks back, but no sequence is declared`);
      return src.previous(def.sequence, def.time, when, field);
    });
    const fieldsOf = (r: Record<string, unknown>) =>
      Object.fromEntries([...def.keys, ...Object.keys(def.sums)].map((k) => [k, r[k] ?? (def.keys.includes(k) ? null : 0)]));
    let written = 0;
    for (const [day, parts] of [...dirty.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const from = new Date(dayStart(day, zone));
      const to = new Date(dayStart(nextDay(day), zone));
      written += await inTx(async (t) => {
        // delete first: it waits for another instance writing the same day, and the read after it
        // (MariaDB takes its snapshot at the first plain read) then sees what that one saw, or more
        await store.deleteWhere({ grain: 'day', period: day, ...narrow(parts) }, { transaction: t });
        const rows = await src.groupedOver(
          { ...(def.where ?? {}), ...narrow(parts), [def.time]: { [Op.gte]: from, [Op.lt]: to } },
          columns,
          def.keys,
          def.sums,
          { transaction: t },
        );
        return store.insertMany(
          rows.map((r) => ({ grain: 'day', period: day, ...fieldsOf(r) })),
          { transaction: t },
        );
      });
      const m = monthOf(day);
      const had = months.get(m);
      if (parts === 'all' || had === 'all') months.set(m, 'all');
      else months.set(m, new Set([...(had ?? []), ...parts]));
    }
    for (const [month, parts] of months) {
      written += await inTx(async (t) => {
        await store.deleteWhere({ grain: 'month', period: month, ...narrow(parts) }, { transaction: t });
        const sums = await store.rows(
          { grain: 'day', period: { [Op.between]: [`${month}-01`, lastDayOfMonth(month)] }, ...narrow(parts) },
          {
            attributes: [...def.keys, ...Object.keys(def.sums).map((k) => [fn('SUM', col(store.column(k))), k] as [ReturnType<typeof fn>, string])],
            group: def.keys,
            transaction: t,
          },
        );
        return store.insertMany(
          sums.map((r) => ({ grain: 'month', period: month, ...fieldsOf(r) })),
          { transaction: t },
        );
      });
    }
    return written;
  }

  private async read(def: RollupDef, call: RequestContext, q: RollupRead): Promise<RollupAnswer> {
    if (!call.orgId) throw new Error(`roll-up "${def.name}": a read needs an organisation`);
    for (const f of q.by) if (!def.keys.includes(f)) throw new Error(`roll-up "${def.name}": cannot group by "${f}"`);
    await this.catchUp(def, call.orgId);
    const zone = await this.host.zoneOf(call.orgId);
    const firstDay = dayOf(q.from, zone);
    const lastDay = dayOf(q.to, zone);
    // whole months from their month rows, the rest from day rows
    const months: string[] = [];
    const dayRanges: Array<[string, string]> = [];
    for (let m = monthOf(firstDay); m <= monthOf(lastDay); m = monthOf(nextDay(lastDayOfMonth(m)))) {
      const a = `${m}-01` < firstDay ? firstDay : `${m}-01`;
      const b = lastDayOfMonth(m) > lastDay ? lastDay : lastDayOfMonth(m);
      if (a === `${m}-01` && b === lastDayOfMonth(m)) months.push(m);
      else dayRanges.push([a, b]);
    }
    const store = this.host.repo(def.store, call);
    const periods: WhereOptions[] = [
      ...(months.length ? [{ grain: 'month', period: { [Op.in]: months } }] : []),
      ...dayRanges.map(([a, b]) => ({ grain: 'day', period: { [Op.between]: [a, b] } })),
    ];
    // grouped by the keys as expressions (`+column`): an index on a key alone would offer its order for
    // the grouping and a planner would scan the whole store through it instead of the periods' ranges
    const rows = await store.rows(
      { [Op.and]: [q.where ?? {}, { [Op.or]: periods }] },
      {
        attributes: [
          ...q.by.map((f) => [literal(`+${store.quoted(f)}`), f] as [ReturnType<typeof literal>, string]),
          ...Object.keys(def.sums).map((k) => [fn('SUM', col(store.column(k))), k] as [ReturnType<typeof fn>, string]),
        ],
        ...(q.by.length ? { group: q.by.map((f) => col(f)) } : {}),
      },
    );
    const out = rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null || v === undefined ? null : Number(v)])));
    return { rows: out, firstDay, lastDay };
  }
}

function markDirty(dirty: Map<string, Set<unknown> | 'all'>, day: string, part: unknown): void {
  const had = dirty.get(day);
  if (had === 'all') return;
  if (had) had.add(part ?? null);
  else dirty.set(day, new Set([part ?? null]));
}
