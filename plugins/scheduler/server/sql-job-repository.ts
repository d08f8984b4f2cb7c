/**
 * Agenda 6's JobRepository on the project's SQL database through Sequelize (SQLite or
 * MySQL/MariaDB). Locking is one conditional UPDATE per candidate row: the WHERE repeats the
 * "free or expired" condition, so of several processes racing for a row exactly one sees an
 * affected row count of 1 and runs the job (no SELECT … FOR UPDATE, which SQLite lacks).
 */
import { randomUUID } from 'node:crypto';
import { computeJobState, toJobId } from 'agenda';
import type {
  JobId,
  JobParameters,
  JobRepository,
  JobRepositoryOptions,
  JobsOverview,
  JobsQueryOptions,
  JobsResult,
  JobsSort,
  JobWithState,
  RemoveJobsOptions,
} from 'agenda';
import { Op, UniqueConstraintError, type Model, type Order, type WhereOptions } from 'sequelize';
import type { JobModel } from './tables';

type Row = Record<string, unknown>;

const toMs = (d: Date | string | number | null | undefined): number | null => {
  if (d === null || d === undefined) return null;
  const n = d instanceof Date ? d.getTime() : typeof d === 'number' ? d : Date.parse(d);
  return Number.isFinite(n) ? n : null;
};
const toDate = (v: unknown): Date | undefined => (v === null || v === undefined ? undefined : new Date(Number(v)));
const parseJson = (s: unknown): unknown => {
  if (typeof s !== 'string') return s ?? undefined;
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
};

/** Canonical JSON of a unique() query (sorted keys), the value of the unique_key column. */
export function uniqueKeyOf(unique: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(unique)
      .sort()
      .map((k) => [k, unique[k]]),
  );
}
const SINGLE_KEY = '"single"';

/** Partial deep match: every key of `filter` equals the same path in `value`. */
export function matchesData(value: unknown, filter: unknown): boolean {
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) return JSON.stringify(value) === JSON.stringify(filter);
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(filter as Row).every(([k, v]) => matchesData((value as Row)[k], v));
}

function rowToJob<DATA = unknown>(m: Model | Row): JobParameters<DATA> {
  const r = (typeof (m as Model).get === 'function' ? (m as Model).get({ plain: true }) : m) as Row;
  const skip = parseJson(r.skipDays);
  return {
    _id: toJobId(String(r.id)),
    name: String(r.name),
    priority: Number(r.priority ?? 0),
    nextRunAt: toDate(r.nextRunAt) ?? null,
    type: r.type === 'single' ? 'single' : 'normal',
    lockedAt: toDate(r.lockedAt),
    lastRunAt: toDate(r.lastRunAt),
    lastFinishedAt: toDate(r.lastFinishedAt),
    failedAt: toDate(r.failedAt),
    failCount: r.failCount === null || r.failCount === undefined ? undefined : Number(r.failCount),
    failReason: (r.failReason as string | null) ?? undefined,
    repeatInterval: (r.repeatInterval as string | null) ?? undefined,
    repeatTimezone: (r.repeatTimezone as string | null) ?? undefined,
    repeatAt: (r.repeatAt as string | null) ?? undefined,
    startDate: toDate(r.startDate),
    endDate: toDate(r.endDate),
    skipDays: Array.isArray(skip) ? (skip as number[]) : undefined,
    data: parseJson(r.data) as DATA,
    disabled: Boolean(r.disabled),
    progress: r.progress === null || r.progress === undefined ? undefined : Number(r.progress),
    fork: Boolean(r.fork),
    lastModifiedBy: (r.lastModifiedBy as string | null) ?? undefined,
    debounceStartedAt: toDate(r.debounceStartedAt),
  };
}

/** The columns a save() may set (processor-managed state is saveJobState's). */
function definitionColumns(job: Omit<JobParameters, '_id' | 'unique' | 'uniqueOpts'>, options: JobRepositoryOptions | undefined): Row {
  return {
    name: job.name,
    priority: job.priority ?? 0,
    nextRunAt: toMs(job.nextRunAt),
    type: job.type ?? 'normal',
    repeatInterval: job.repeatInterval === undefined || job.repeatInterval === null ? null : String(job.repeatInterval),
    repeatTimezone: job.repeatTimezone ?? null,
    repeatAt: job.repeatAt ?? null,
    startDate: toMs(job.startDate),
    endDate: toMs(job.endDate),
    skipDays: job.skipDays ? JSON.stringify(job.skipDays) : null,
    data: JSON.stringify(job.data ?? null),
    disabled: job.disabled ?? false,
    fork: job.fork ?? false,
    failReason: job.failReason ?? null,
    failCount: job.failCount ?? null,
    failedAt: toMs(job.failedAt),
    lastModifiedBy: options?.lastModifiedBy ?? null,
  };
}

const SORT_COLUMNS: Record<keyof JobsSort, string> = {
  nextRunAt: 'nextRunAt',
  lastRunAt: 'lastRunAt',
  lastFinishedAt: 'lastFinishedAt',
  priority: 'priority',
  name: 'name',
  data: 'data',
};

export class SqlJobRepository implements JobRepository {
  constructor(private readonly jobs: JobModel) {}

  async connect(): Promise<void> {
    // the table comes from the plugin's migration; a cheap read proves it is there
    await this.jobs.count({ where: { id: '' } });
  }

  private filterWhere(o: RemoveJobsOptions & { search?: string; includeDisabled?: boolean }): WhereOptions[] {
    const and: WhereOptions[] = [];
    if (o.id) and.push({ id: String(o.id) });
    else if (o.ids?.length) and.push({ id: { [Op.in]: o.ids.map(String) } });
    if (o.name) and.push({ name: o.name });
    else if (o.names?.length) and.push({ name: { [Op.in]: o.names } });
    else if (o.notNames?.length) and.push({ name: { [Op.notIn]: o.notNames } });
    if (o.search) and.push({ name: { [Op.like]: `%${o.search}%` } });
    if (o.includeDisabled === false) and.push({ disabled: false });
    return and;
  }

  /** Ids of the rows matching the options (data filters are applied here, portably). */
  private async matchingIds(o: RemoveJobsOptions): Promise<string[] | null> {
    const and = this.filterWhere(o);
    if (!and.length && o.data === undefined) return null;
    const rows = await this.jobs.findAll({ where: { [Op.and]: and }, attributes: ['id', 'data'], raw: true });
    return (rows as unknown as Row[]).filter((r) => o.data === undefined || matchesData(parseJson(r.data), o.data)).map((r) => String(r.id));
  }

  async queryJobs(options: JobsQueryOptions = {}): Promise<JobsResult> {
    const { state, data, sort, skip = 0, limit = 0 } = options;
    const order: Order = sort
      ? (Object.entries(sort) as Array<[keyof JobsSort, 'asc' | 'desc']>).map(([k, d]) => [SORT_COLUMNS[k], d === 'asc' ? 'ASC' : 'DESC'])
      : [
          ['nextRunAt', 'DESC'],
          ['lastRunAt', 'DESC'],
        ];
    const rows = await this.jobs.findAll({ where: { [Op.and]: this.filterWhere({ ...options, includeDisabled: options.includeDisabled ?? true }) }, order });
    const now = new Date();
    let jobs: JobWithState[] = rows
      .map((m) => rowToJob(m))
      .filter((j) => data === undefined || matchesData(j.data, data))
      .map((j) => ({ ...j, _id: j._id as JobId, state: computeJobState(j, now) }))
      .filter((j) => !state || (state === 'paused' ? j.disabled === true : j.state === state));
    const total = jobs.length;
    if (limit > 0) jobs = jobs.slice(skip, skip + limit);
    else if (skip > 0) jobs = jobs.slice(skip);
    return { jobs, total };
  }

  async getJobsOverview(): Promise<JobsOverview[]> {
    const now = new Date();
    const byName = new Map<string, JobsOverview>();
    for (const m of await this.jobs.findAll({ order: [['name', 'ASC']] })) {
      const j = rowToJob(m);
      const o = byName.get(j.name) ?? { name: j.name, total: 0, running: 0, scheduled: 0, queued: 0, completed: 0, failed: 0, repeating: 0, paused: 0 };
      o.total++;
      o[computeJobState(j, now)]++;
      if (j.disabled) o.paused++;
      byName.set(j.name, o);
    }
    return [...byName.values()];
  }

  async getDistinctJobNames(): Promise<string[]> {
    const rows = (await this.jobs.findAll({ attributes: ['name'], group: ['name'], order: [['name', 'ASC']], raw: true })) as unknown as Row[];
    return rows.map((r) => String(r.name));
  }

  async getJobById(id: string): Promise<JobParameters | null> {
    const m = await this.jobs.findByPk(String(id));
    return m ? rowToJob(m) : null;
  }

  async getQueueSize(): Promise<number> {
    return this.jobs.count({ where: { nextRunAt: { [Op.lt]: Date.now() } } });
  }

  async removeJobs(options: RemoveJobsOptions): Promise<number> {
    const ids = await this.matchingIds(options);
    if (!ids?.length) return 0;
    return this.jobs.destroy({ where: { id: { [Op.in]: ids } } });
  }

  async disableJobs(options: RemoveJobsOptions): Promise<number> {
    return this.setDisabled(options, true);
  }

  async enableJobs(options: RemoveJobsOptions): Promise<number> {
    return this.setDisabled(options, false);
  }

  private async setDisabled(options: RemoveJobsOptions, disabled: boolean): Promise<number> {
    const ids = await this.matchingIds(options);
    if (!ids?.length) return 0;
    const [n] = await this.jobs.update({ disabled }, { where: { id: { [Op.in]: ids } } });
    return n;
  }

  async purgeAllJobs(): Promise<number> {
    return this.jobs.destroy({ where: {} });
  }

  async saveJob<DATA = unknown>(job: JobParameters<DATA>, options: JobRepositoryOptions | undefined): Promise<JobParameters<DATA>> {
    const { _id, unique, uniqueOpts, ...props } = job;
    const cols = definitionColumns(props as JobParameters, options);
    if (_id) {
      await this.jobs.update(cols, { where: { id: String(_id), name: props.name } });
      // a job removed meanwhile stays removed; the caller gets its data back unchanged
      return ((await this.getJobById(String(_id))) as JobParameters<DATA> | null) ?? job;
    }
    if (props.type === 'single') return this.upsert<DATA>(props.name, SINGLE_KEY, cols, { protectPastNextRun: true });
    if (unique) return this.upsert<DATA>(props.name, uniqueKeyOf(unique), cols, { insertOnly: uniqueOpts?.insertOnly, debounce: uniqueOpts?.debounce });
    return this.insert<DATA>({ ...cols, uniqueKey: null });
  }

  private async insert<DATA>(cols: Row): Promise<JobParameters<DATA>> {
    const m = await this.jobs.create({ id: randomUUID(), ...cols });
    return rowToJob<DATA>(m);
  }

  /** One row per (name, key); the unique index settles a race between two inserting processes. */
  private async upsert<DATA>(
    name: string,
    key: string,
    cols: Row,
    opts: { insertOnly?: boolean; debounce?: NonNullable<JobParameters['uniqueOpts']>['debounce']; protectPastNextRun?: boolean },
    attempt = 0,
  ): Promise<JobParameters<DATA>> {
    const now = Date.now();
    const existing = await this.jobs.findOne({ where: { name, uniqueKey: key } });
    const d = opts.debounce;
    if (!existing) {
      const values: Row = { ...cols, uniqueKey: key };
      if (d) {
        values.debounceStartedAt = now;
        if (d.strategy !== 'leading') values.nextRunAt = now + d.delay;
      }
      try {
        return await this.insert<DATA>(values);
      } catch (err) {
        if (err instanceof UniqueConstraintError && attempt === 0) return this.upsert<DATA>(name, key, cols, opts, 1);
        throw err;
      }
    }
    const current = existing.get({ plain: true }) as Row;
    if (opts.insertOnly && !d) return rowToJob<DATA>(existing);
    const values: Row = { ...cols };
    // saveJobState's failure bookkeeping is not reset by re-saving the definition
    delete values.failReason;
    delete values.failCount;
    delete values.failedAt;
    if (opts.protectPastNextRun && typeof cols.nextRunAt === 'number' && cols.nextRunAt <= now && current.nextRunAt !== null)
      values.nextRunAt = current.nextRunAt;
    if (d) {
      const started = current.debounceStartedAt === null || current.debounceStartedAt === undefined ? now : Number(current.debounceStartedAt);
      if (d.strategy === 'leading') {
        values.nextRunAt = current.nextRunAt;
        values.debounceStartedAt = started;
      } else if (d.maxWait && now - started >= d.maxWait) {
        values.nextRunAt = now;
        values.debounceStartedAt = null;
      } else {
        values.nextRunAt = now + d.delay;
        values.debounceStartedAt = started;
      }
    }
    await this.jobs.update(values, { where: { id: current.id } });
    return ((await this.getJobById(String(current.id))) ?? rowToJob(existing)) as JobParameters<DATA>;
  }

  async saveJobState(job: JobParameters, options: JobRepositoryOptions | undefined): Promise<void> {
    if (!job._id) throw new Error('Cannot save job state without job ID');
    const where = { id: String(job._id), name: job.name };
    const [n] = await this.jobs.update(
      {
        lockedAt: toMs(job.lockedAt),
        nextRunAt: toMs(job.nextRunAt),
        lastRunAt: toMs(job.lastRunAt),
        progress: job.progress ?? null,
        failReason: job.failReason ?? null,
        failCount: job.failCount ?? null,
        failedAt: toMs(job.failedAt),
        lastFinishedAt: toMs(job.lastFinishedAt),
        lastModifiedBy: options?.lastModifiedBy ?? null,
      },
      { where },
    );
    // MySQL counts changed rows only: an unchanged row is not a missing one
    if (!n && !(await this.jobs.count({ where })))
      throw new Error(`job ${job._id} (name: ${job.name}) cannot be updated in the database, maybe it does not exist anymore?`);
  }

  async lockJob(job: JobParameters, options: JobRepositoryOptions | undefined): Promise<JobParameters | undefined> {
    if (!job._id) return undefined;
    const [n] = await this.jobs.update(
      { lockedAt: Date.now(), lastModifiedBy: options?.lastModifiedBy ?? null },
      { where: { id: String(job._id), name: job.name, lockedAt: null, disabled: false, nextRunAt: toMs(job.nextRunAt) } },
    );
    return n === 1 ? ((await this.getJobById(String(job._id))) ?? undefined) : undefined;
  }

  async unlockJob(job: JobParameters): Promise<void> {
    if (!job._id) return;
    // a job whose run ended with no next run keeps its lock out of the queue's way
    await this.jobs.update({ lockedAt: null }, { where: { id: String(job._id), nextRunAt: { [Op.ne]: null } } });
  }

  async unlockJobs(jobIds: (JobId | string)[]): Promise<void> {
    if (!jobIds.length) return;
    await this.jobs.update({ lockedAt: null }, { where: { id: { [Op.in]: jobIds.map(String) } } });
  }

  async getNextJobToRun(
    jobName: string,
    nextScanAt: Date,
    lockDeadline: Date,
    now: Date | undefined,
    options: JobRepositoryOptions | undefined,
  ): Promise<JobParameters | undefined> {
    const lockable = (): WhereOptions => ({
      name: jobName,
      disabled: false,
      [Op.or]: [{ lockedAt: null, nextRunAt: { [Op.lte]: nextScanAt.getTime() } }, { lockedAt: { [Op.lte]: lockDeadline.getTime() } }],
    });
    // a candidate taken by another process in between is skipped; a few rounds then give up
    for (let round = 0; round < 3; round++) {
      const candidates = (await this.jobs.findAll({
        where: lockable(),
        attributes: ['id'],
        order: [
          ['nextRunAt', 'ASC'],
          ['priority', 'DESC'],
        ],
        limit: 5,
        raw: true,
      })) as unknown as Row[];
      if (!candidates.length) return undefined;
      for (const c of candidates) {
        const [n] = await this.jobs.update(
          { lockedAt: (now ?? new Date()).getTime(), lastModifiedBy: options?.lastModifiedBy ?? null },
          { where: { [Op.and]: [{ id: String(c.id) }, lockable()] } },
        );
        if (n === 1) return (await this.getJobById(String(c.id))) ?? undefined;
      }
    }
    return undefined;
  }
}
