/**
 * Casbin policies per organisation (domain), built from the database:
 *   role grants   = role codes ∩ organisation set       → p role:<id>  org:<id> code
 *   user extras   = user codes ∩ organisation set       → p user:<id>  org:<id> code
 *   memberships   = user's roles that belong to the org → g user:<id>  role:<id> org:<id>
 *   open-API token = the whole organisation set         → p org-token:<id> org:<id> code
 * Organisations load lazily on first use. A write to a role, user or organisation bumps
 * that organisation's row in sys_policy_version and reloads it here at once; every instance
 * compares the version rows at most every `pollMs` and reloads what changed elsewhere.
 */
import { newEnforcer, newModelFromString, type Enforcer } from 'casbin';
import { Op, type Transaction } from 'sequelize';
import { CASBIN_MODEL, orgDomain, roleSubject, tokenSubject, userSubject } from './casbin-model';
import type { Directory } from './directory';
import type { AccessTables } from './tables';

export interface PolicyEngineOptions {
  /** how often versions written by other instances are checked (ms) */
  pollMs?: number;
  /** codes a held code grants as well: a page's View code → the Api codes its screen calls (Catalogue.implied) */
  implied?: () => Map<string, string[]>;
  /** codes an organisation's set holds but that are withheld there (a plugin switched off: access/plugin-codes) */
  withheld?: (orgId: number) => Promise<Set<string>>;
}

export class PolicyEngine {
  private enforcer: Promise<Enforcer>;
  /** organisation → policy version loaded into the enforcer */
  private loaded = new Map<number, number>();
  /** one load at a time per organisation */
  private pending = new Map<number, Promise<void>>();
  private lastPoll = 0;
  /** organisations written without a transaction handle: reloaded on every use until this time */
  private dirtyUntil = new Map<number, number>();
  private polling: Promise<void> | null = null;
  /** organisation → answers of can() since its policies last loaded */
  private readonly memo = new Map<number, { generation: number; answers: Map<string, boolean> }>();
  private readonly pollMs: number;
  private readonly implied: () => Map<string, string[]>;
  private readonly withheld: (orgId: number) => Promise<Set<string>>;

  constructor(
    private readonly directory: Directory,
    private readonly tables: AccessTables,
    opts: PolicyEngineOptions = {},
  ) {
    this.pollMs = opts.pollMs ?? 2000;
    this.implied = opts.implied ?? (() => new Map());
    this.withheld = opts.withheld ?? (async () => new Set());
    this.enforcer = newEnforcer(newModelFromString(CASBIN_MODEL));
  }

  async can(subject: string, orgId: number, code: string): Promise<boolean> {
    await this.ensure(orgId);
    // Casbin scans the policies in order until one matches (a subject loaded last, such as the
    // organisation token, scanned every role's rows first: 17 ms a check); answers are kept
    // per organisation until its policies load again (the generation guards a load mid-check)
    let memo = this.memo.get(orgId);
    if (!memo) this.memo.set(orgId, (memo = { generation: 0, answers: new Map() }));
    const key = `${subject}\u0000${code}`;
    const known = memo.answers.get(key);
    if (known !== undefined) return known;
    const generation = memo.generation;
    const e = await this.enforcer;
    const allowed = await e.enforce(subject, orgDomain(orgId), code);
    if (memo.generation === generation && memo.answers.size < 100_000) memo.answers.set(key, allowed);
    return allowed;
  }

  /** Every code a subject holds in an organisation (its own and its roles'). */
  async codes(subject: string, orgId: number): Promise<Set<string>> {
    await this.ensure(orgId);
    const e = await this.enforcer;
    const rows = await e.getImplicitPermissionsForUser(subject, orgDomain(orgId));
    return new Set(rows.filter((r) => r[1] === orgDomain(orgId)).map((r) => r[2]));
  }

  /**
   * Call after writing a role, user or organisation. With the write's transaction, the
   * version bump commits with the write and the local reload runs after the commit.
   * Without it (a caller that cannot hand it over), the bump runs right after the current
   * write on its own connection and the organisation reloads on every use for a second,
   * so the first call after the write's commit sees the change.
   */
  async changed(orgIds: Iterable<number>, transaction?: Transaction): Promise<void> {
    const ids = [...new Set([...orgIds].filter((n) => Number.isInteger(n) && n > 0))];
    if (!ids.length) return;
    if (!transaction) {
      for (const id of ids) this.dirtyUntil.set(id, Date.now() + 1000);
      setTimeout(
        () =>
          void this.bump(ids)
            .then(() => this.reloadLoaded(ids))
            .catch((err) => console.error('[access] policy version bump failed; other instances catch up on the next change', err)),
        0,
      );
      return;
    }
    await this.bump(ids, transaction);
    transaction.afterCommit(() => this.reloadLoaded(ids));
  }

  private async bump(ids: number[], transaction?: Transaction): Promise<void> {
    const t = this.tables.policyVersion;
    await t.increment('version', { where: { orgId: { [Op.in]: ids } }, transaction });
    const existing = new Set((await t.findAll({ where: { orgId: ids }, attributes: ['orgId'], transaction })).map((r) => r.get('orgId') as number));
    for (const orgId of ids) if (!existing.has(orgId)) await t.create({ orgId, version: 1 }, { transaction });
  }

  private async reloadLoaded(ids: number[]): Promise<void> {
    await Promise.all(ids.filter((id) => this.loaded.has(id)).map((id) => this.load(id)));
  }

  private async ensure(orgId: number): Promise<void> {
    if (Date.now() - this.lastPoll >= this.pollMs) await this.poll();
    const dirty = this.dirtyUntil.get(orgId);
    if (dirty !== undefined && dirty < Date.now()) this.dirtyUntil.delete(orgId);
    if (!this.loaded.has(orgId) || this.dirtyUntil.has(orgId)) await this.load(orgId);
    else if (this.pending.has(orgId)) await this.pending.get(orgId);
  }

  private poll(): Promise<void> {
    this.polling ??= this.checkVersions().finally(() => {
      this.lastPoll = Date.now();
      this.polling = null;
    });
    return this.polling;
  }

  private async checkVersions(): Promise<void> {
    const loadedIds = [...this.loaded.keys()];
    if (!loadedIds.length) return;
    const rows = await this.tables.policyVersion.findAll({ where: { orgId: loadedIds } });
    const stale = rows.filter((r) => this.loaded.get(r.get('orgId') as number) !== r.get('version'));
    await Promise.all(stale.map((r) => this.load(r.get('orgId') as number)));
  }

  private load(orgId: number): Promise<void> {
    const prev = this.pending.get(orgId) ?? Promise.resolve();
    const next = prev.then(() => this.reload(orgId));
    const tracked = next.finally(() => {
      if (this.pending.get(orgId) === tracked) this.pending.delete(orgId);
    });
    this.pending.set(orgId, tracked);
    return tracked;
  }

  private async reload(orgId: number): Promise<void> {
    const versionRow = await this.tables.policyVersion.findByPk(orgId);
    const version = (versionRow?.get('version') as number | undefined) ?? 0;
    const dom = orgDomain(orgId);
    const [org, roles, users, withheld] = await Promise.all([
      this.directory.org(orgId),
      this.directory.rolesOfOrg(orgId),
      this.directory.usersOfOrg(orgId),
      this.withheld(orgId),
    ]);
    const bound = new Set((org?.permissions ?? []).filter((c) => !withheld.has(c)));
    const implied = this.implied();
    const p = new Map<string, string[]>();
    const add = (sub: string, codes: Iterable<string>) => {
      for (const c of codes) {
        if (!bound.has(c)) continue;
        p.set(`${sub}\u0000${c}`, [sub, dom, c]);
        // a page the organisation allows brings the calls its screen makes
        for (const extra of implied.get(c) ?? []) p.set(`${sub}\u0000${extra}`, [sub, dom, extra]);
      }
    };
    const roleIds = new Set<number>();
    for (const r of roles) {
      roleIds.add(r.id);
      add(roleSubject(r.id), r.permissions);
    }
    const g: string[][] = [];
    for (const u of users) {
      add(userSubject(u.id), u.permissions);
      for (const rid of new Set(u.roleIds)) if (roleIds.has(rid)) g.push([userSubject(u.id), roleSubject(rid), dom]);
    }
    add(tokenSubject(orgId), bound);

    const e = await this.enforcer;
    const memo = this.memo.get(orgId);
    if (memo) {
      memo.generation++;
      memo.answers.clear();
    }
    await e.removeFilteredPolicy(1, dom);
    await e.removeFilteredGroupingPolicy(2, dom);
    if (p.size) await e.addPolicies([...p.values()]);
    if (g.length) await e.addGroupingPolicies(g);
    if (memo) {
      memo.generation++;
      memo.answers.clear();
    }
    this.loaded.set(orgId, version);
  }
}
