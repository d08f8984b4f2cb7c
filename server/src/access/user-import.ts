/**
 * Users imported from a file (issue 23 item 6; docs/ACCESS.md "Importing users"): a file never
 * carries passwords. Each imported user is created with a random password nobody knows and,
 * when the row has an e-mail address, mailed an activation link (the first administrator's:
 * single use, three days, sha256-stored) once the import's part has committed; a user without
 * an address is activated by an administrator setting a password in the user form.
 */
import { randomBytes } from 'node:crypto';
import type { Sequelize, Transaction } from 'sequelize';
import type { HookRegistry } from '../resources/hooks';
import type { ImportValidators } from '../import';
import type { MailService } from '../mail/types';
import { ACTIVATION_TTL_MS, type OneTimeCodes } from '../auth/one-time-codes';
import { activationUrl } from './first-admin';
import { msg } from './messages';
import { ACCESS_RESOURCES } from './sequelize-directory';

export interface UserImportDeps {
  sequelize: Sequelize;
  validators: ImportValidators;
  hooks: HookRegistry;
  codes: OneTimeCodes;
  mail: () => MailService | undefined;
  /** config.publicUrl (else the organisation's own login URL, else the link's path alone) */
  publicUrl: () => string;
  log: (message: string, err?: unknown) => void;
}

/** The outermost transaction: a savepoint's afterCommit would run when the savepoint is released. */
const root = (t: Transaction): Transaction => {
  let at = t as Transaction & { parent?: Transaction };
  while (at.parent) at = at.parent as Transaction & { parent?: Transaction };
  return at;
};

const originOf = (url: unknown): string => {
  try {
    const u = new URL(String(url ?? ''));
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : '';
  } catch {
    return '';
  }
};

export function installUserImport(deps: UserImportDeps): void {
  // rows the validator prepared, per import transaction (a refused row's entry goes with it)
  const pending = new WeakMap<Transaction, Set<string>>();
  const keyOf = (orgId: unknown, name: unknown) => `${String(orgId)}\u0000${String(name)}`;

  deps.validators.add(ACCESS_RESOURCES.user, (e) => {
    // a password only the random bytes know: the account opens by its activation link
    // (hex: letters and digits only, then a capital, a digit and a sign — the SPEC §5 rule's character set)
    if (typeof e.values.password !== 'string' || !e.values.password) e.values.password = `${randomBytes(16).toString('hex')}A1!`;
    const t = root(e.transaction);
    if (!pending.has(t)) pending.set(t, new Set());
    pending.get(t)!.add(keyOf(e.ctx.orgId, e.values.name));
    return null;
  });

  deps.hooks.after('create', ACCESS_RESOURCES.user, async (e) => {
    const row = e.row as Record<string, unknown> | undefined;
    if (!row) return;
    if (!pending.get(root(e.transaction))?.delete(keyOf(e.ctx.orgId, row.name))) return;
    const email = typeof row.email === 'string' ? row.email.trim() : '';
    if (!email) return;
    const orgs = deps.sequelize.models[ACCESS_RESOURCES.organization];
    const org = e.ctx.orgId && orgs ? await orgs.findByPk(e.ctx.orgId, { attributes: ['name', 'entryCode', 'loginUrl'], transaction: e.transaction }) : null;
    const { token, expiresAt } = await deps.codes.issueActivation(Number(row.id), e.ctx.orgId, e.transaction);
    const orgName = String(org?.get('name') ?? '');
    const url = activationUrl(deps.publicUrl() || originOf(org?.get('loginUrl')), (org?.get('entryCode') as string | null) ?? null, token);
    const lang = e.ctx.language;
    const mail = {
      to: [email],
      subject: msg(lang, 'mail.inviteSubject', { org: orgName }),
      text: msg(lang, 'mail.inviteText', {
        name: row.realName || row.name,
        org: orgName,
        username: row.name,
        url,
        days: Math.round(ACTIVATION_TTL_MS / 86_400_000),
        expires: expiresAt.toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
      }),
    };
    root(e.transaction).afterCommit(() => {
      const service = deps.mail();
      if (!service) return deps.log(`[import] no mail service: the activation link of user ${String(row.name)} was not sent`);
      void service.send(mail).catch((err) => deps.log(`[import] sending the activation mail of user ${String(row.name)} failed`, err));
    });
  });
}
