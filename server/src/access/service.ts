/**
 * The access layer of one server: directory, sessions, login throttle, Casbin policies,
 * the permission catalogue and the guard, built over the server's database.
 */
import type { Sequelize, Transaction } from 'sequelize';
import type { HookRegistry } from '../resources/hooks';
import type { Metadata } from '@rti/metadata';
import type { CallGuard, Language } from '../http/types';
import { hashPassword, verifyPassword } from '../resources/password';
import { DEFAULT_THROTTLE, LoginThrottle, type ThrottleOptions } from '../auth/login-throttle';
import { buildCatalogue, menuPaths, type Catalogue, type CatalogueCall, type Translate } from './catalogue';
import type { Directory } from './directory';
import { AuthStrategies } from './auth-strategies';
import { createGuard } from './guard';
import { PolicyEngine } from './policies';
import { ACCESS_RESOURCES, createSequelizeDirectory } from './sequelize-directory';
import { SESSION_TTL_MS, SessionStore } from './sessions';
import { defineAccessTables } from './tables';
import './migrations';
import { ApiError, ErrorCode } from '../http/api-error';
import { msg } from './messages';
import { installOnboarding, type OnboardingOptions } from './onboarding';
import { OneTimeCodes } from '../auth/one-time-codes';
import { pluginCodes, pluginSwitches, type PluginSwitches } from './plugin-codes';

export interface PasswordHasher {
  hash(plain: string): Promise<string>;
  verify(plain: string, hash: string): Promise<boolean>;
}

export interface AccessOptions {
  sequelize: Sequelize;
  metadata: () => Metadata;
  /** the call registry's calls (generated, account, plugin) */
  calls: () => CatalogueCall[];
  translate: Translate;
  /** default: the core's scrypt hashing (resources/password) */
  passwords?: PasswordHasher;
  throttle?: { [K in keyof ThrottleOptions]?: Partial<ThrottleOptions[K]> };
  /** how often policy versions written by other instances are checked (ms, default 2000) */
  pollMs?: number;
  sessionTtlMs?: number;
  /** plugins that are switched on per organisation (definePlugin perOrganisation) */
  switchable?: () => string[];
}

export interface AccessService {
  sequelize: Sequelize;
  directory: Directory;
  sessions: SessionStore;
  throttle: LoginThrottle;
  policies: PolicyEngine;
  passwords: PasswordHasher;
  guard: CallGuard;
  /** token strategies of this server (plugins add theirs through ctx.auth.strategy) */
  strategies: AuthStrategies;
  metadata: () => Metadata;
  catalogue(): Catalogue;
  /** plugins switched on per organisation (access/plugin-codes) */
  switches: PluginSwitches;
  /** `access` (codes held) and `permissions` (menu paths) of a subject in an organisation */
  accessLists(subject: string, orgId: number, lang: Language): Promise<{ access: string[]; permissions: string[] }>;
  /**
   * Tell the access layer a row of a resource was written (from an after-hook): role, user and
   * organisation writes reload the affected organisations' policies. Pass the hook event's
   * transaction when there is one: the version bump then joins the write and the reload waits
   * for the commit (`installHooks` does this); without it see PolicyEngine.changed.
   */
  written(resource: string, rows: Array<Record<string, unknown> | null | undefined>, transaction?: Transaction): Promise<void>;
  /**
   * Registers `written` as after-hook of every write of the user, role and organisation
   * resources, and the onboarding hooks of the organisation resource (access/onboarding):
   * entry codes, theme images, and what a platform user's new organisation starts with.
   */
  installHooks(hooks: HookRegistry, onboarding?: Omit<OnboardingOptions, 'sequelize' | 'allCodes'>): void;
}

const ORG_PERMISSION_SETS = ['pcPermissions', 'pdaPermissions'] as const;

export function createAccess(opts: AccessOptions): AccessService {
  const tables = defineAccessTables(opts.sequelize);
  const directory = createSequelizeDirectory(opts.sequelize);
  const sessions = new SessionStore(tables, opts.sessionTtlMs ?? SESSION_TTL_MS);
  const throttle = new LoginThrottle(tables, {
    pair: { ...DEFAULT_THROTTLE.pair, ...opts.throttle?.pair },
    address: { ...DEFAULT_THROTTLE.address, ...opts.throttle?.address },
    user: { ...DEFAULT_THROTTLE.user, ...opts.throttle?.user },
  });
  const switches = pluginSwitches(opts.sequelize, opts.switchable ?? (() => []), (plugin) => pluginCodes(opts.metadata(), opts.calls(), plugin));
  const policies = new PolicyEngine(directory, tables, {
    pollMs: opts.pollMs,
    implied: () => catalogue().implied,
    withheld: (orgId) => switches.withheld(orgId),
  });
  const strategies = new AuthStrategies();
  const guard = createGuard({ sequelize: opts.sequelize, directory, sessions, policies, strategies });

  // Rebuilt when plugins add calls after start (the registry only grows).
  let cached: { size: number; meta: Metadata; catalogue: Catalogue } | null = null;
  const catalogue = (): Catalogue => {
    const calls = opts.calls();
    const meta = opts.metadata();
    if (!cached || cached.size !== calls.length || cached.meta !== meta) {
      cached = { size: calls.length, meta, catalogue: buildCatalogue(meta, calls, opts.translate) };
    }
    return cached.catalogue;
  };

  const orgsOfRow = (resource: string, row: Record<string, unknown>): number[] => {
    const num = (v: unknown) => Number(v);
    if (resource === ACCESS_RESOURCES.organization) return [num(row.id)];
    if (resource === ACCESS_RESOURCES.role) return [num(row.orgId)];
    if (resource === ACCESS_RESOURCES.user) {
      const list = Array.isArray(row.organizationIds) ? row.organizationIds : [];
      return [num(row.orgId), ...list.map(num)];
    }
    return [];
  };

  const service: AccessService = {
    sequelize: opts.sequelize,
    directory,
    sessions,
    throttle,
    policies,
    passwords: opts.passwords ?? { hash: hashPassword, verify: verifyPassword },
    guard,
    strategies,
    metadata: opts.metadata,
    catalogue,
    switches,
    async accessLists(subject, orgId, lang) {
      const held = await policies.codes(subject, orgId);
      return { access: [...held].sort(), permissions: menuPaths(catalogue().tree(lang), held) };
    },
    async written(resource, rows, transaction) {
      if (!Object.values(ACCESS_RESOURCES).includes(resource as never)) return;
      const orgIds = rows.flatMap((r) => (r ? orgsOfRow(resource, r) : []));
      await policies.changed(orgIds, transaction);
    },
    installHooks(hooks, onboarding) {
      if (onboarding) {
        // activation links of first administrators live in the one-time code table of every account code
        const codes = new OneTimeCodes(opts.sequelize, service.passwords);
        installOnboarding(hooks, { sequelize: opts.sequelize, allCodes: () => catalogue().codes, codes: () => codes, ...onboarding });
      }
      // An organisation's permission set bounds every grant in it, so only platform (sys-org)
      // users may change it — otherwise its own administrator could raise the bound.
      hooks.before('update', ACCESS_RESOURCES.organization, (e) => {
        if (e.ctx.user?.sysOrgUser) return;
        for (const key of ORG_PERMISSION_SETS) {
          if (!e.data || !(key in e.data)) continue;
          const before = new Set((e.previous?.[key] as string[] | null) ?? []);
          const after = new Set((e.data[key] as string[] | null) ?? []);
          if (before.size !== after.size || [...after].some((c) => !before.has(c))) {
            throw new ApiError(ErrorCode.noPermission, msg(e.ctx.language, 'access.noPermission', { code: key }), {}, 403);
          }
        }
      });
      for (const resource of Object.values(ACCESS_RESOURCES)) {
        for (const action of ['create', 'update', 'delete'] as const) {
          hooks.after(action, resource, (e) =>
            service.written(resource, [e.row as Record<string, unknown>, e.previous as Record<string, unknown>], e.transaction),
          );
        }
      }
    },
  };
  return service;
}
