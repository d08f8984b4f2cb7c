/**
 * The seam between the call pipeline (http/, resources/) and access control (auth/, access/).
 * Every call — generated, account, plugin — is a CallDef in one registry; the pipeline
 * authenticates, checks the call's permission code and only then runs the handler, so no
 * route can forget tenancy or access.
 */
import type { Request, Response } from 'express';
import type { InputDecl, PagingDecl } from './declared-input';

export type Language = 'en-US' | 'zh-CN' | 'ja-JP';

export interface SessionUser {
  id: number;
  username: string;
  realName?: string | null;
  /** platform user: may act in every organisation it belongs to */
  sysOrgUser: boolean;
}

/** Who is calling, in which organisation and language. Built once per request by the guard. */
export interface RequestContext {
  language: Language;
  /** null only for public calls */
  user: SessionUser | null;
  /** current organisation (OrgId header, checked against the user's organisations) */
  orgId: number | null;
  /** organisations the caller belongs to */
  orgIds: number[];
  /** null = not warehouse-restricted */
  warehouseIds: number[] | null;
  /** how the caller authenticated */
  via: 'session' | 'org-token' | 'public';
  /**
   * A restricted credential (a named API token limited to some resources or to reading): every
   * permission code is checked against it as well as against Casbin, and calls that act with
   * the organisation's whole power without a code (login tickets) refuse it.
   */
  scope?: CallerScope;
  /** session token hash (for logout) */
  sessionId?: string;
  ip?: string;
  userAgent?: string;
  /**
   * For the admin log of a call that has no organisation or user of its own (a public account
   * call): the organisation and account it acted on, set by its handler once known.
   */
  auditAs?: { orgId: number; operator?: string; userId?: number };
}

export interface CallerScope {
  /** shown in logs, e.g. the token's name */
  label: string;
  allows(code: string): boolean;
}

export interface CallInput {
  body: Record<string, unknown>;
  ctx: RequestContext;
  req: Request;
  res: Response;
  /**
   * The body's declared fields, validated and typed (CallDef `input` / `paging`; undefined for
   * a call that declares none). Hand-written calls read their parameters here, not from `body`.
   */
  input?: Record<string, unknown>;
}

export interface CallDef {
  /** SPEC §7 path without /api, e.g. "/device-beacon/list" */
  path: string;
  /**
   * permission code checked by Casbin; null = any signed-in caller (account/info, metadata …).
   * Default when omitted: apiCode(path).
   */
  permission?: string | null;
  /** callable without a session (login, organization/basic) */
  public?: boolean;
  /**
   * also answers GET (query parameters as its body): public files an `<img src>` loads without
   * a session, e.g. an organisation's login logo. Only honoured together with `public`.
   */
  get?: boolean;
  /** raw body handling (multipart uploads); JSON otherwise */
  raw?: boolean;
  /** metadata resource the call belongs to (generated calls; optional for plugin calls) */
  resource?: string;
  /** plugin id that added the call (undefined for core calls) */
  plugin?: string;
  /** other calls the screen making this one makes too (a report's parameter pickers): a page granting this call implies them */
  uses?: readonly string[];
  /**
   * The body's fields, declared like metadata fields (http/declared-input.ts): validated by
   * the generated calls' validator before the handler runs, which reads them from `input`.
   */
  input?: InputDecl;
  /** `page` and `limit` read as the generated lists do, into `input.page/limit/offset` */
  paging?: PagingDecl;
  /**
   * Returns the envelope's data. A handler that streams (exports) writes to res itself and
   * returns the symbol STREAMED.
   */
  handler: (input: CallInput) => Promise<unknown> | unknown;
}

export const STREAMED = Symbol('streamed');

/** Implemented by access/ ; used by the pipeline for every call. */
export interface CallGuard {
  /** Builds the context; throws ApiError(10006) for a missing/expired/revoked session on non-public calls. */
  authenticate(req: Request, call: CallDef): Promise<RequestContext>;
  /** Throws ApiError(10005) when ctx lacks `code` in ctx.orgId. */
  authorize(ctx: RequestContext, code: string): Promise<void>;
}
