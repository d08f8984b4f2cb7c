/** A refusal with a docs/API.md code; message is an i18n key resolved in the caller's language. */
export class ApiError extends Error {
  constructor(
    public readonly code: number,
    /** i18n key (server/src/i18n) or already-translated text */
    public readonly messageKey: string,
    public readonly params: Record<string, unknown> = {},
    public readonly httpStatus = 200,
  ) {
    super(messageKey);
  }
}

export const ErrorCode = {
  internal: 10000,
  validation: 10001,
  notFound: 10002,
  duplicate: 10003,
  statusForbidden: 10004,
  noPermission: 10005,
  invalidSession: 10006,
  orgNotAllowed: 10007,
  locked: 10008,
  badCredentials: 10009,
  tooManyAttempts: 10010,
  tooLarge: 10011,
  malformedJson: 10012,
  unknownCall: 10013,
  licenceLimit: 10014,
  /** a one-time code or login ticket that is wrong, used or expired */
  codeInvalid: 10015,
} as const;
