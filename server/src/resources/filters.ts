/**
 * Declared filters (metadata `filters`): a resource's named conditions as a where clause, so
 * every plugin counting "carriers in stock" asks the same question of the same rows.
 */
import type { Metadata } from '@rti/metadata';
import { Op, type WhereOptions } from 'sequelize';

export function declaredFilter(metadata: Metadata, resource: string, name: string): WhereOptions {
  const filter = metadata.resources[resource]?.filters?.[name];
  if (!filter) throw new Error(`${resource} declares no filter "${name}"`);
  return {
    [Op.and]: Object.entries(filter).map(([field, cond]) =>
      Array.isArray(cond) ? { [field]: { [Op.in]: cond } } : { [Op.or]: [{ [field]: { [Op.notIn]: cond.not } }, { [field]: { [Op.is]: null } }] },
    ),
  };
}
