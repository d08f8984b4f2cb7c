/**
 * Every call of the API — generated, account, plugin — lives in one registry, so the
 * dispatcher, the permission catalogue and the docs all see the same list.
 */
import { apiCode } from '@rti/metadata';
import type { Request } from 'express';
import type { CallDef, RequestContext } from './types';

/** What a finished call looked like: handed to call listeners (the audit log) after the answer. */
export interface CallRecord {
  req: Request;
  /** undefined for an unknown path */
  call?: CallDef;
  /** undefined when authentication failed */
  ctx?: RequestContext;
  /** parsed JSON body ({} for raw/multipart calls) */
  body: Record<string, unknown>;
  httpStatus: number;
  /** envelope code (0 = success; streamed answers count as 0) */
  code: number;
  /** envelope message, in the caller's language */
  message: string;
  /** envelope data of a successful, non-streamed answer (not to be kept whole: may be large) */
  data?: unknown;
  ms: number;
}

export type CallListener = (record: CallRecord) => void;

export const normalizePath = (path: string): string => '/' + path.replace(/^\/+|\/+$/g, '');

/** The permission code checked for a call: explicit, null (signed-in only) or derived. */
export function callPermission(def: CallDef): string | null {
  if (def.public) return null;
  return def.permission === undefined ? apiCode(def.path) : def.permission;
}

export class CallRegistry {
  private readonly calls = new Map<string, CallDef>();
  private readonly listeners: CallListener[] = [];

  /** Runs fn after every call under /api has answered (never on the call path; errors are swallowed). */
  onCallEnd(fn: CallListener): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  emitCallEnd(record: CallRecord): void {
    for (const fn of this.listeners) {
      try {
        fn(record);
      } catch {
        // A listener must never break the call that has already answered.
      }
    }
  }

  add(def: CallDef): void {
    const path = normalizePath(def.path);
    const existing = this.calls.get(path);
    if (existing) {
      const by = (d: CallDef) => (d.plugin ? `plugin "${d.plugin}"` : 'the core');
      throw new Error(`call ${path} is already registered by ${by(existing)}; ${by(def)} cannot register it again`);
    }
    this.calls.set(path, { ...def, path });
  }

  get(path: string): CallDef | undefined {
    return this.calls.get(normalizePath(path));
  }

  has(path: string): boolean {
    return this.calls.has(normalizePath(path));
  }

  list(): CallDef[] {
    return [...this.calls.values()];
  }

  /** Every permission code some call checks (generated and plugin calls), sorted. */
  permissionCodes(): string[] {
    const codes = new Set<string>();
    for (const def of this.calls.values()) {
      const code = callPermission(def);
      if (code) codes.add(code);
    }
    return [...codes].sort();
  }
}
