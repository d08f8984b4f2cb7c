/**
 * Every call of the API — generated, account, plugin — lives in one registry, so the
 * dispatcher, the permission catalogue and the docs all see the same list.
 */
import { apiCode } from '@rti/metadata';
import type { CallDef } from './types';

export const normalizePath = (path: string): string => '/' + path.replace(/^\/+|\/+$/g, '');

/** The permission code checked for a call: explicit, null (signed-in only) or derived. */
export function callPermission(def: CallDef): string | null {
  if (def.public) return null;
  return def.permission === undefined ? apiCode(def.path) : def.permission;
}

export class CallRegistry {
  private readonly calls = new Map<string, CallDef>();

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
