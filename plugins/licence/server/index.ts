/**
 * Licence (SPEC §1, §2 licence screens, §3 Licence): verify, import and update a signed
 * licence file (licence-file.ts), and enforce it on create — organisation quantity,
 * carrier quantity, effective and expiration dates — with code 10014 (docs/API.md).
 *
 * Configuration (environment):
 *   LICENCE_PUBLIC_KEY        Ed25519 public key, PEM or base64 SPKI DER (or LICENCE_PUBLIC_KEY_FILE)
 *   LICENCE_HOST_NAME         this server's name as licences name it (default: os.hostname())
 *   LICENCE_REQUIRED=true     refuse organisation/carrier creation while no licence is installed
 *                             (default: not enforced until a licence is imported)
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Transaction } from 'sequelize';
import { ApiError, ErrorCode, definePlugin, type HookEvent, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import {
  LicenceFormatError,
  notYetEffective,
  parseLicenceFile,
  publicKeyFrom,
  remainingDays,
  signatureValid,
  type Licence,
  type SignedLicence,
} from './licence-file';
import { LICENCE_TABLE, licenceColumns, licenceStore, type InstalledLicence } from './licence-store';

/**
 * An installed licence is re-read at most this often (another instance may have imported
 * one); "none installed" is re-checked sooner, so a first import anywhere applies quickly.
 */
const CACHE_MS = 30_000;
const CACHE_NONE_MS = 2_000;
/** Far from the carrier limit a recent count is good enough; closer than this, count every time. */
const EXACT_MARGIN = 200;
const COUNT_MS = 5_000;

interface Problem {
  key: string;
  params?: Record<string, unknown>;
}

const env = () => process.env;
const hostName = () => env().LICENCE_HOST_NAME || hostname();

function publicKeyText(): string | null {
  if (env().LICENCE_PUBLIC_KEY) return env().LICENCE_PUBLIC_KEY!;
  if (env().LICENCE_PUBLIC_KEY_FILE) return readFileSync(env().LICENCE_PUBLIC_KEY_FILE!, 'utf8');
  return null;
}

/** Why a licence cannot be used on this server now, or null. */
function problemOf(doc: SignedLicence, now = new Date()): Problem | null {
  const keyText = publicKeyText();
  if (!keyText) return { key: 'rules.licenceNoKey' };
  if (!signatureValid(doc, publicKeyFrom(keyText))) return { key: 'rules.licenceBadSignature' };
  const l = doc.licence;
  if (l.hostName !== '*' && l.hostName.toLowerCase() !== hostName().toLowerCase())
    return { key: 'rules.licenceHostMismatch', params: { expected: l.hostName, actual: hostName() } };
  if (notYetEffective(l, now)) return { key: 'rules.licenceNotYetEffective', params: { date: l.effectiveDate } };
  const left = remainingDays(l, now);
  if (left !== null && left < 0) return { key: 'rules.licenceExpired', params: { date: l.expirationDate } };
  return null;
}

export default definePlugin({
  id: 'licence',
  ownTables: 'its licence table, and platform-wide counts of carriers and devices against the licence (every organisation by design)',
  server(ctx: PluginServerContext) {
    ctx.addMigration({
      name: '2026-11-22-licence',
      up: ({ queryInterface }) => queryInterface.createTable(LICENCE_TABLE, licenceColumns),
      down: ({ queryInterface }) => queryInterface.dropTable(LICENCE_TABLE),
    });
    const store = licenceStore(ctx.db);
    // eslint-disable-next-line rti/no-raw-models -- licence quantities count every organisation's rows together
    const models = ctx.database.models;

    let cached: { at: number; value: InstalledLicence | null } | null = null;
    const installed = async (): Promise<InstalledLicence | null> => {
      if (!cached || Date.now() - cached.at > (cached.value ? CACHE_MS : CACHE_NONE_MS)) cached = { at: Date.now(), value: await store.current() };
      return cached.value;
    };

    // Quantities are platform-wide by definition, so these are whole-table counts (no rows read).
    const usage = async (transaction?: Transaction) => ({
      organizations: await models.organization.count({ transaction }),
      carriers: await models.carrier.count({ transaction }),
    });
    let carrierCount: { at: number; value: number } | null = null;
    /** Whether `pending` more carriers would pass the limit. Only an exact count refuses. */
    const carriersOver = async (limit: number, pending: number, transaction: Transaction): Promise<boolean> => {
      const recent = carrierCount && Date.now() - carrierCount.at < COUNT_MS;
      if (recent && carrierCount!.value + pending < limit - EXACT_MARGIN) return false;
      carrierCount = { at: Date.now(), value: await models.carrier.count({ transaction }) };
      return carrierCount.value + pending >= limit;
    };

    const refuse = (p: Problem) => new ApiError(ErrorCode.licenceLimit, p.key, p.params ?? {});

    /** The licence that governs a create, or a refusal. null = nothing to enforce. */
    const governing = async (): Promise<Licence | null> => {
      const current = await installed();
      if (!current) {
        if (env().LICENCE_REQUIRED === 'true') throw refuse({ key: 'rules.licenceMissing' });
        return null;
      }
      const problem = problemOf({ licence: current.licence, signature: parseLicenceFile(current.content).signature });
      if (problem) throw refuse(problem);
      return current.licence;
    };

    ctx.hooks.before('create', 'organization', async (e: HookEvent) => {
      const l = await governing();
      if (l && (await models.organization.count({ transaction: e.transaction })) >= l.organizationQuantity) {
        throw refuse({ key: 'rules.licenceOrganizationLimit', params: { limit: l.organizationQuantity } });
      }
    });
    // Bulk writers (imports) run every row's before-hook before one insert: rows already
    // admitted in the same transaction count too.
    const admitted = new WeakMap<Transaction, number>();
    ctx.hooks.before('create', 'carrier', async (e: HookEvent) => {
      const l = await governing();
      if (!l) return;
      const pending = admitted.get(e.transaction) ?? 0;
      if (await carriersOver(l.carrierQuantity, pending, e.transaction)) {
        throw refuse({ key: 'rules.licenceCarrierLimit', params: { limit: l.carrierQuantity } });
      }
      admitted.set(e.transaction, pending + 1);
      // The cached count moves with admissions (rolled-back ones only make it cautious).
      carrierCount = carrierCount && { ...carrierCount, value: carrierCount.value + 1 };
    });
    // The hook above counts rows admitted in the same transaction, so an import may write a
    // chunk in one insert: a chunk handler tells the engine so (nothing else to check per chunk).
    ctx.imports.validator('carrier', { beforeCreateMany: () => undefined });

    const t = (call: RequestContext, p: Problem) => ctx.t(call.language, p.key, p.params);

    const describe = async (call: RequestContext, doc: SignedLicence, installedAt: Date | null) => {
      const problem = problemOf(doc);
      return {
        ...doc.licence,
        remainingDays: remainingDays(doc.licence),
        valid: problem === null,
        reason: problem ? t(call, problem) : null,
        installedAt: installedAt ? installedAt.toISOString() : null,
        usage: await usage(),
      };
    };

    const parse = (body: Record<string, unknown>): SignedLicence => {
      try {
        return parseLicenceFile(body.content);
      } catch (err) {
        if (err instanceof LicenceFormatError) throw new ApiError(ErrorCode.validation, 'rules.licenceMalformed', { reason: err.message });
        throw err;
      }
    };
    /** Installing changes what every organisation may do: platform administrators only. */
    const platformOnly = (call: RequestContext) => {
      if (call.via !== 'session' || !call.user?.sysOrgUser) throw new ApiError(ErrorCode.noPermission, 'rules.licencePlatformOnly', {}, 403);
    };
    const install = async (call: RequestContext, doc: SignedLicence, content: string) => {
      const problem = problemOf(doc);
      if (problem) throw new ApiError(ErrorCode.validation, problem.key, problem.params ?? {});
      await store.install(doc.licence, content, call.user?.id ?? null);
      cached = null;
      return describe(call, doc, new Date());
    };

    /**
     * What a platform administrator should know before anything is blocked (issue 23): no licence
     * (and what that leaves unenforced), a licence that does not apply here, one about to expire,
     * quantities nearly used up. null for everyone else and when all is well.
     */
    const WARN_DAYS = 30;
    const WARN_SHARE = 0.9;
    ctx.addCall({
      path: '/licence/status',
      permission: null,
      async handler({ ctx: call }) {
        if (call.via !== 'session' || !call.user?.sysOrgUser) return null;
        const say = (key: string, params: Record<string, unknown> = {}) => ctx.t(call.language, key, params);
        const current = await store.current();
        const required = env().LICENCE_REQUIRED === 'true';
        if (!current)
          return { state: 'none', level: required ? 'error' : 'warning', message: say(required ? 'licence.status.noneRequired' : 'licence.status.none') };
        const doc = { licence: current.licence, signature: parseLicenceFile(current.content).signature };
        const problem = problemOf(doc);
        if (problem) return { state: 'invalid', level: 'error', message: t(call, problem) };
        const l = current.licence;
        const left = remainingDays(l);
        const used = await usage();
        const notes: string[] = [];
        if (left !== null && left <= WARN_DAYS) notes.push(say('licence.status.expiring', { days: left, date: l.expirationDate }));
        if (used.carriers >= l.carrierQuantity * WARN_SHARE) notes.push(say('licence.status.carriers', { used: used.carriers, limit: l.carrierQuantity }));
        if (used.organizations >= l.organizationQuantity * WARN_SHARE)
          notes.push(say('licence.status.organizations', { used: used.organizations, limit: l.organizationQuantity }));
        if (!notes.length) return null;
        return { state: 'attention', level: 'warning', message: notes.join(' ') };
      },
    });

    // Without content: the installed licence (null when none); with content: a dry run on that file.
    ctx.addCall({
      path: '/licence/verify',
      async handler({ body, ctx: call }) {
        if (body.content !== undefined) return describe(call, parse(body), null);
        const current = await store.current();
        if (!current) return null;
        return describe(call, { licence: current.licence, signature: parseLicenceFile(current.content).signature }, current.installedAt);
      },
    });

    ctx.addCall({
      path: '/licence/import',
      async handler({ body, ctx: call }) {
        platformOnly(call);
        const doc = parse(body);
        return install(call, doc, String(body.content));
      },
    });

    // A renewal of the installed licence: same licensee and host, not older.
    ctx.addCall({
      path: '/licence/update',
      async handler({ body, ctx: call }) {
        platformOnly(call);
        const doc = parse(body);
        const current = await store.current();
        if (!current) throw new ApiError(ErrorCode.validation, 'rules.licenceMissing');
        const was = current.licence;
        const now = doc.licence;
        if (now.organizationId !== was.organizationId || now.hostName !== was.hostName) {
          throw new ApiError(ErrorCode.validation, 'rules.licenceRenewalMismatch', { licenceNo: was.licenceNo });
        }
        if (was.expirationDate !== null && now.expirationDate !== null && now.expirationDate < was.expirationDate) {
          throw new ApiError(ErrorCode.validation, 'rules.licenceOlder');
        }
        return install(call, doc, String(body.content));
      },
    });
  },
});
