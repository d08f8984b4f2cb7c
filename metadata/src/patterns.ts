/**
 * Named patterns a field's `pattern` may use (SPEC §5). Shared by server validation and
 * console forms so both accept exactly the same input. Anything else in `pattern` is a
 * regular-expression source.
 */
import type { NamedPattern } from './types';

export const PASSWORD_SPECIALS = '!@#$%^&*()_+';

/**
 * An IANA time zone the runtime knows ("Asia/Shanghai", "UTC"): no regular expression can say
 * which names exist, so this one asks Intl — still a RegExp, so form rules and server
 * validation use it like the others.
 */
class TimeZonePattern extends RegExp {
  constructor() {
    super('^[A-Za-z][A-Za-z0-9_+/-]*$');
  }
  override test(value: string): boolean {
    if (!super.test(value) || value.length > 64) return false;
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: value });
      return true;
    } catch {
      return false;
    }
  }
}

export const namedPatterns: Record<NamedPattern, RegExp> = {
  // 6 octets, optional ':' or '-' separators (beacons often report bare hex)
  mac: /^[0-9A-Fa-f]{2}(?:[:-]?[0-9A-Fa-f]{2}){5}$/,
  // 8-50 chars with a letter, a digit and one of !@#$%^&*()_+ (user and new passwords)
  password: /^(?=.*[A-Za-z])(?=.*\d)(?=.*[!@#$%^&*()_+])[A-Za-z\d!@#$%^&*()_+]{8,50}$/,
  // at least 8 chars with lower case, upper case and a digit (gateway MQTT password)
  mqttPassword: /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{8,}$/,
  color: /^#[0-9A-Fa-f]{6}$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  mobile: /^\+?[0-9][0-9 -]{5,19}$/,
  code: /^[A-Za-z0-9][A-Za-z0-9_.-]*$/,
  // five or six space-separated cron fields
  cron: /^\S+(?:\s+\S+){4,5}$/,
  url: /^https?:\/\/\S+$/,
  timeZone: new TimeZonePattern(),
};

export function isNamedPattern(p: string): p is NamedPattern {
  return Object.prototype.hasOwnProperty.call(namedPatterns, p);
}

/** The RegExp for a field's `pattern` (named or a regular-expression source). */
export function patternRegExp(pattern: string): RegExp {
  return isNamedPattern(pattern) ? namedPatterns[pattern] : new RegExp(pattern);
}

/** Named patterns whose mismatch message says the expected format (a regular expression only says "wrong format"). */
const DESCRIBED = new Set<string>(['password', 'mqttPassword', 'color', 'mac', 'email', 'mobile', 'code', 'cron', 'url', 'timeZone']);

/**
 * The rule of a pattern mismatch — `password`, `code`, … or `format` for a regular expression —
 * `codeMax` for a code with a maximum length (the one message then says both: "SN: letters,
 * digits, - _ and . …, up to 64 characters"). Keys under `validation.` (console, metadata
 * texts) and `server.validation.` (server), with `max` as parameter.
 */
export function patternRule(pattern: string, maxLength?: number): string {
  if (!DESCRIBED.has(pattern)) return 'format';
  return pattern === 'code' && maxLength !== undefined ? 'codeMax' : pattern;
}

/** Validation message key for a pattern mismatch (validation.password, validation.codeMax, validation.format …). */
export function patternMessageKey(pattern: string, maxLength?: number): string {
  return `validation.${patternRule(pattern, maxLength)}`;
}
