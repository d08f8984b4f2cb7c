/**
 * The ship order's status groups as its metadata declares them (`statusGroups`: open,
 * shippable, inTransit, arrived), so no file of this plugin writes a status set out again.
 */
import { statusGroup, type Metadata } from '@rti/metadata';

export type OrderGroup = 'open' | 'shippable' | 'inTransit' | 'arrived';
let groups: Record<OrderGroup, number[]> | undefined;

/** Reads the groups once the plugin starts (every server of a process loads the same metadata). */
export function readOrderGroups(meta: Metadata): void {
  const res = meta.resources['ship-order'];
  groups = { open: [], shippable: [], inTransit: [], arrived: [] };
  for (const name of Object.keys(groups) as OrderGroup[]) groups[name] = statusGroup(res, name).map(Number);
}

export function orderGroup(name: OrderGroup): number[] {
  if (!groups) throw new Error('shipping: status groups read before the plugin started');
  return groups[name];
}
