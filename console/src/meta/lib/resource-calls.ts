/** Which generated calls a resource answers, and ids as they travel through routes. */
import type { ResourceDef } from '@rti/metadata/browser';

/** Whether the resource answers a generated call (CallsDef defaults: all but import). */
export const hasCall = (res: ResourceDef, call: 'list' | 'base' | 'create' | 'update' | 'delete' | 'all' | 'export'): boolean => res.calls?.[call] !== false;

/** A record id from the URL: numeric ids go back to numbers (the API types ids strictly). */
export function routeId(raw: string | undefined): string | number | undefined {
  if (raw === undefined || raw === '') return undefined;
  return /^\d{1,15}$/.test(raw) ? Number(raw) : raw;
}
