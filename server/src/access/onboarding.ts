/**
 * Onboarding a customer organisation (docs/ACCESS.md "Onboarding an organisation"): hooks on
 * the organisation resource's writes, so System → Organisation → Create is the whole flow.
 *
 * - Entry codes: stored in lower case, letters/digits/inner hyphens, no look-alike of another
 *   organisation's code (access/entry-codes).
 * - Theme images: uploaded while creating or editing an organisation, they land in the
 *   uploader's current organisation; they are copied into the organisation the row belongs to,
 *   so its menu and its public login page find them.
 * - Created by a platform (sys-org) user: the organisation gets the template's permission set
 *   when none was picked (the whole catalogue without a template), starter roles (an
 *   "Administrator" holding the whole set, and the template's roles narrowed to the set), the
 *   creator as a member holding that Administrator role — so it is in the creator's switcher
 *   and pickers at once — and starter data copied from the template (dictionary rows, device
 *   models) plus a default project.
 *
 * - First administrator (write-only `firstAdmin` of the create, ./first-admin): an existing
 *   user or a new one mailed an activation link, holding that Administrator role.
 *
 * The template is the organisation named by ONBOARDING_TEMPLATE_ORG (its code or entry code),
 * else the creator's current organisation.
 */
import { Op, type Model, type ModelStatic, type Sequelize, type Transaction } from 'sequelize';
import type { HookEvent, HookRegistry } from '../resources/hooks';
import type { Language, RequestContext } from '../http/types';
import { ApiError, ErrorCode } from '../http/api-error';
import { copyStoredFile, STORED_FILE_NAME } from '../files/theme-files';
import type { ObjectStorage } from '../files/storage';
import { ENTRY_CODE, entryCodeHolders, lookAlike, lookAlikeGroups, normaliseEntryCode } from './entry-codes';
import { msg } from './messages';
import { ACCESS_RESOURCES } from './sequelize-directory';
import { checkFirstAdmin, FIRST_ADMIN_FIELD, placeFirstAdmin, readFirstAdmin, type FirstAdmin } from './first-admin';
import type { OneTimeCodes } from '../auth/one-time-codes';
import type { MailService } from '../mail/types';

export const THEME_IMAGE_FIELDS = ['largeLogo', 'smallLogo', 'loginBackground'] as const;
const PERMISSION_SETS = ['pcPermissions', 'pdaPermissions'] as const;
/** resources whose rows a new organisation gets from its template (when declared) */
export const STARTER_RESOURCES = ['dictionary', 'device-model'] as const;
/** at most this many rows per starter resource are copied */
const STARTER_MAX_ROWS = 2000;

export interface OnboardingOptions {
  sequelize: Sequelize;
  /** the server's file store (read when a hook runs: it is built after the hooks are installed) */
  storage: () => ObjectStorage;
  /** every code of the catalogue (the set of an organisation created without a template) */
  allCodes: () => Iterable<string>;
  /** code or entry code of the template organisation (default: env ONBOARDING_TEMPLATE_ORG) */
  templateOrg?: string;
  /** activation links of new first administrators, the mail service that sends them, the console's origin */
  codes?: () => OneTimeCodes;
  mail?: () => MailService | undefined;
  publicUrl?: () => string;
  log?: (message: string, err?: unknown) => void;
}

const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((c): c is string => typeof c === 'string') : []);
const ids = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number).filter((n) => Number.isInteger(n) && n > 0) : []);
const names = (v: unknown): string[] =>
  (Array.isArray(v) ? v : v === null || v === undefined || v === '' ? [] : [v]).filter((n): n is string => typeof n === 'string');

const isPlatformUser = (ctx: RequestContext) => ctx.via === 'session' && Boolean(ctx.user?.sysOrgUser);

export function installOnboarding(hooks: HookRegistry, opts: OnboardingOptions): void {
  const model = (name: string): ModelStatic<Model> | undefined => opts.sequelize.models[name];
  const orgs = () => model(ACCESS_RESOURCES.organization)!;

  const checkEntryCode = async (e: HookEvent, selfId: number | null) => {
    if (!e.data || !('entryCode' in e.data)) return;
    const code = normaliseEntryCode(e.data.entryCode);
    e.data.entryCode = code;
    if (code === null) return;
    const lang = e.ctx.language;
    if (!ENTRY_CODE.test(code)) throw new ApiError(ErrorCode.validation, msg(lang, 'org.entryCodeRule'));
    const other = lookAlike(code, await entryCodeHolders(orgs(), e.transaction), selfId);
    if (other) throw new ApiError(ErrorCode.duplicate, msg(lang, 'org.entryCodeTaken', { entryCode: code, other: other.entryCode, name: other.name }));
  };

  const template = async (ctx: RequestContext, transaction: Transaction): Promise<Model | null> => {
    const named = (opts.templateOrg ?? process.env.ONBOARDING_TEMPLATE_ORG ?? '').trim();
    if (named) {
      const row = await orgs().findOne({ where: { [Op.or]: [{ code: named }, { entryCode: named.toLowerCase() }] }, transaction });
      if (row) return row;
    }
    return ctx.orgId ? orgs().findByPk(ctx.orgId, { transaction }) : null;
  };

  // the create's first administrator, read before the write and placed after it (same transaction)
  const firstAdmins = new WeakMap<Transaction, FirstAdmin>();
  const firstAdminDeps = () => ({
    users: () => model(ACCESS_RESOURCES.user)!,
    orgs,
    codes: () => {
      if (!opts.codes) throw new Error('onboarding: no one-time codes for activation links');
      return opts.codes();
    },
    mail: opts.mail ?? (() => undefined),
    publicUrl: opts.publicUrl ?? (() => ''),
    log: opts.log ?? (() => undefined),
  });

  hooks.before('create', ACCESS_RESOURCES.organization, async (e) => {
    await checkEntryCode(e, null);
    if (!e.data) return;
    // write-only: never stored (the column stays empty)
    const raw = e.data[FIRST_ADMIN_FIELD];
    if (FIRST_ADMIN_FIELD in e.data) e.data[FIRST_ADMIN_FIELD] = null;
    if (!isPlatformUser(e.ctx)) return;
    const admin = readFirstAdmin(e.ctx.language, raw);
    if (admin) {
      await checkFirstAdmin(firstAdminDeps(), e.ctx, admin, e.transaction);
      firstAdmins.set(e.transaction, admin);
    }
    // An organisation without codes is unusable (every call answers 10005): unless some were
    // picked, it gets its template's set, or the whole catalogue.
    if (PERMISSION_SETS.some((k) => list(e.data![k]).length > 0)) return;
    const from = await template(e.ctx, e.transaction);
    const pc = list(from?.get('pcPermissions'));
    const pda = list(from?.get('pdaPermissions'));
    if (pc.length + pda.length > 0) {
      e.data.pcPermissions = pc;
      e.data.pdaPermissions = pda;
    } else {
      e.data.pcPermissions = [...opts.allCodes()];
    }
  });

  hooks.before('update', ACCESS_RESOURCES.organization, (e) => {
    // a first administrator is named once, on create: an update leaves the (empty) column alone
    if (e.data && FIRST_ADMIN_FIELD in e.data) delete e.data[FIRST_ADMIN_FIELD];
    return checkEntryCode(e, Number(e.previous?.id ?? (e.data as Record<string, unknown> | undefined)?.id) || null);
  });

  // theme images go where the organisation is (create and edit alike)
  const placeThemeImages = async (e: HookEvent) => {
    const row = e.row as Record<string, unknown> | undefined;
    if (!row || e.ctx.orgId === null) return;
    const orgId = Number(row.id);
    for (const field of THEME_IMAGE_FIELDS) {
      const before = new Set(names(e.previous?.[field]));
      for (const name of names(row[field])) {
        if (!STORED_FILE_NAME.test(name)) continue; // URLs (data:, http:) and other values are no stored files
        const ok = await copyStoredFile(opts.storage(), e.ctx.orgId, orgId, name);
        // a name kept from before may predate this check; a new one must be a file the uploader has
        if (!ok && !before.has(name)) {
          throw new ApiError(ErrorCode.validation, msg(e.ctx.language, 'org.themeFileMissing', { name, field: msg(e.ctx.language, `field.${field}`) }));
        }
      }
    }
  };
  hooks.after('update', ACCESS_RESOURCES.organization, placeThemeImages);

  hooks.after('create', ACCESS_RESOURCES.organization, async (e) => {
    await placeThemeImages(e);
    if (!isPlatformUser(e.ctx) || !e.row) return;
    const orgId = Number(e.row.id);
    const { transaction, ctx } = e;
    const sets = { pc: list(e.row.pcPermissions), pda: list(e.row.pdaPermissions) };
    const from = await template(ctx, transaction);
    const templateId = from ? Number(from.get('id')) : null;
    const adminRoleId = await starterRoles(orgId, templateId, sets, ctx, transaction);
    await addCreator(orgId, adminRoleId, ctx, transaction);
    const admin = firstAdmins.get(transaction);
    if (admin) {
      const org = { id: orgId, name: String(e.row.name), entryCode: (e.row.entryCode as string | null) ?? null };
      await placeFirstAdmin(firstAdminDeps(), ctx, admin, org, adminRoleId, transaction);
    }
    await starterData(orgId, templateId, ctx, transaction);
  });

  const audit = (ctx: RequestContext, now: Date) => ({ createdBy: ctx.user?.id || null, updatedBy: ctx.user?.id || null, createdAt: now, updatedAt: now });

  /** The Administrator role (the whole set) and the template's other roles narrowed to the set. */
  const starterRoles = async (
    orgId: number,
    templateId: number | null,
    sets: { pc: string[]; pda: string[] },
    ctx: RequestContext,
    transaction: Transaction,
  ): Promise<number> => {
    const roles = model(ACCESS_RESOURCES.role)!;
    const now = new Date();
    const adminName = msg(ctx.language, 'onboarding.adminRole');
    const bound = new Set([...sets.pc, ...sets.pda]);
    const narrow = (codes: unknown) => list(codes).filter((c) => bound.has(c));
    const admin = await roles.create({ orgId, name: adminName, pcPermissions: sets.pc, pdaPermissions: sets.pda, ...audit(ctx, now) }, { transaction });
    if (templateId !== null && templateId !== orgId) {
      const others = await roles.findAll({ where: { orgId: templateId }, order: [['id', 'ASC']], transaction });
      const rows = others
        .filter((r) => String(r.get('name')).trim().toLowerCase() !== adminName.toLowerCase())
        .map((r) => ({
          orgId,
          name: r.get('name'),
          pcPermissions: narrow(r.get('pcPermissions')),
          pdaPermissions: narrow(r.get('pdaPermissions')),
          ...audit(ctx, now),
        }));
      if (rows.length) await roles.bulkCreate(rows, { transaction });
    }
    return Number(admin.get('id'));
  };

  /** The platform user who created the organisation becomes its member and administrator. */
  const addCreator = async (orgId: number, adminRoleId: number, ctx: RequestContext, transaction: Transaction) => {
    const users = model(ACCESS_RESOURCES.user)!;
    const me = ctx.user ? await users.findByPk(ctx.user.id, { transaction }) : null;
    if (!me) return;
    const organizationIds = [...new Set([...ids(me.get('organizationIds')), orgId])];
    const roleIds = [...new Set([...ids(me.get('roleIds')), adminRoleId])];
    // through the instance (its setters store the JSON lists); the model's hooks (password hashing) do not run
    me.set({ organizationIds, roleIds });
    await me.save({ transaction, hooks: false });
  };

  /** Pickers are not empty on the first day: the template's dictionary and device models, a default project. */
  const starterData = async (orgId: number, templateId: number | null, ctx: RequestContext, transaction: Transaction) => {
    const now = new Date();
    if (templateId !== null && templateId !== orgId) {
      for (const name of STARTER_RESOURCES) {
        const m = model(name);
        if (!m) continue;
        const attrs = m.getAttributes();
        if (!attrs.orgId) continue;
        const rows = await m.findAll({ where: { orgId: templateId }, order: [['id', 'ASC']], limit: STARTER_MAX_ROWS, transaction });
        const copies = rows.map((r) => {
          const plain = r.get({ plain: true }) as Record<string, unknown>;
          const out: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(plain)) {
            if (['id', 'orgId', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy'].includes(k)) continue;
            // references and files point into the template: a copy starts without them
            if (/Ids?$/.test(k) || /picture|image|file/i.test(k)) continue;
            out[k] = v;
          }
          return { ...out, orgId, ...audit(ctx, now) };
        });
        if (copies.length) await m.bulkCreate(copies, { transaction });
      }
    }
    const projects = model('project');
    if (projects?.getAttributes().orgId && (await projects.count({ where: { orgId }, transaction })) === 0) {
      await projects.create({ orgId, name: msg(ctx.language, 'onboarding.defaultProject'), ...audit(ctx, now) }, { transaction });
    }
  };
}

/** Start-up check: organisations whose entry codes read the same (created before codes were compared). */
export async function reportLookAlikeEntryCodes(sequelize: Sequelize, log: (message: string) => void, lang: Language = 'en-US'): Promise<number> {
  const orgs = sequelize.models[ACCESS_RESOURCES.organization];
  if (!orgs) return 0;
  const groups = lookAlikeGroups(await entryCodeHolders(orgs));
  for (const g of groups) {
    log(`[access] ${msg(lang, 'org.entryCodeLookAlikes', { names: g.map((h) => h.name).join(', '), codes: g.map((h) => h.entryCode).join(', ') })}`);
  }
  return groups.length;
}
