/**
 * The licence file: signed JSON.
 *
 *   { "licence": { "licenceNo", "organizationId", "organizationQuantity", "carrierQuantity",
 *                  "hostName", "category", "effectiveDate", "expirationDate" },
 *     "signature": "<base64 Ed25519 signature of canonical(licence)>" }
 *
 * canonical() is JSON with keys sorted at every level and no spaces, so the signature does
 * not depend on how the file was formatted. The vendor signs with its private key
 * (sign-cli.ts); servers hold only the public key (LICENCE_PUBLIC_KEY), so a customer can
 * verify a licence but cannot make one.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

export interface Licence {
  licenceNo: string;
  /** the licensee organisation (informational; limits are platform-wide) */
  organizationId: number | null;
  /** most organisations the platform may hold */
  organizationQuantity: number;
  /** most carriers the platform may hold */
  carrierQuantity: number;
  /** server host name the licence is issued for; "*" = any host */
  hostName: string;
  /** enum licenceCategory: temporary 10, authorised 20, permanent 30 */
  category: number;
  effectiveDate: string;
  /** null only for permanent licences */
  expirationDate: string | null;
}

export interface SignedLicence {
  licence: Licence;
  signature: string;
}

/** A readable reason for a file that is not a licence at all (message param). */
export class LicenceFormatError extends Error {}

export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const CATEGORIES = [10, 20, 30];

/** Parses and shape-checks a licence file's text (not its signature). */
export function parseLicenceFile(text: unknown): SignedLicence {
  if (typeof text !== 'string' || !text.trim()) throw new LicenceFormatError('empty');
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new LicenceFormatError('not JSON');
  }
  const d = doc as Partial<SignedLicence>;
  if (!d || typeof d !== 'object' || typeof d.signature !== 'string' || !d.licence || typeof d.licence !== 'object')
    throw new LicenceFormatError('licence and signature expected');
  const l = d.licence as unknown as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof l.licenceNo !== 'string' || !l.licenceNo) problems.push('licenceNo');
  if (l.organizationId !== null && l.organizationId !== undefined && !(Number.isInteger(l.organizationId) && (l.organizationId as number) > 0))
    problems.push('organizationId');
  for (const k of ['organizationQuantity', 'carrierQuantity']) if (!Number.isInteger(l[k]) || (l[k] as number) < 0) problems.push(k);
  if (typeof l.hostName !== 'string' || !l.hostName) problems.push('hostName');
  if (!CATEGORIES.includes(l.category as number)) problems.push('category');
  if (typeof l.effectiveDate !== 'string' || !DATE.test(l.effectiveDate)) problems.push('effectiveDate');
  const permanent = l.category === 30;
  if (!(l.expirationDate === null && permanent) && !(typeof l.expirationDate === 'string' && DATE.test(l.expirationDate))) problems.push('expirationDate');
  if (problems.length) throw new LicenceFormatError(`invalid ${problems.join(', ')}`);
  return { licence: { ...(l as unknown as Licence), organizationId: (l.organizationId as number | null | undefined) ?? null }, signature: d.signature };
}

/** A public key from PEM text or base64 SPKI DER. */
export function publicKeyFrom(text: string): KeyObject {
  const t = text.trim();
  return t.startsWith('-----') ? createPublicKey(t) : createPublicKey({ key: Buffer.from(t, 'base64'), format: 'der', type: 'spki' });
}

export function signatureValid(doc: SignedLicence, key: KeyObject): boolean {
  try {
    return verify(null, Buffer.from(canonical(doc.licence)), key, Buffer.from(doc.signature, 'base64'));
  } catch {
    return false;
  }
}

/** Vendor side: the signed file text for a licence. */
export function signLicence(licence: Licence, privateKeyPem: string): string {
  const signature = sign(null, Buffer.from(canonical(licence)), createPrivateKey(privateKeyPem)).toString('base64');
  return JSON.stringify({ licence, signature }, null, 2) + '\n';
}

const DAY = 86_400_000;
const dayOf = (d: string) => Date.parse(`${d}T00:00:00Z`) / DAY;

/** Whole days left until the expiration date (0 on the last valid day, negative after); null = permanent. */
export function remainingDays(l: Licence, now = new Date()): number | null {
  if (!l.expirationDate) return null;
  return dayOf(l.expirationDate) - Math.floor(now.getTime() / DAY);
}

export function notYetEffective(l: Licence, now = new Date()): boolean {
  return dayOf(l.effectiveDate) > Math.floor(now.getTime() / DAY);
}
