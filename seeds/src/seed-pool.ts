/**
 * Pool analytics for the demo (issue 19 item 5): the agreed free period of every partner of the
 * organisation (plugin resource `pool-partner-terms`) — customers 21 days, suppliers 10,
 * packaging services 30 — so the partner terms page and the balances' free periods and days
 * beyond them show agreed terms, not only the default 14 days. Through the plugin's registered
 * call, as an administrator's form would write them. Idempotent: a partner with terms gets no more.
 */
import { Enums } from '@rti/metadata';
import type { Sequelize } from 'sequelize';

type Row = Record<string, any>;
type CallRunner = (path: string, body: Record<string, unknown>) => Promise<any>;

const T = Enums.supplierCustomerType;
/** free days by partner type; other types keep the plugin's default */
export const DEMO_FREE_DAYS: Record<number, number> = { [T.customer]: 21, [T.supplier]: 10, [T.packagingSupplier]: 30 };

export async function seedPool(sequelize: Sequelize, call: CallRunner, has: (path: string) => boolean, orgId: number): Promise<number> {
  const partners = sequelize.models['supplier-customer'];
  const terms = sequelize.models['pool-partner-terms'];
  if (!partners || !terms || !has('/pool-partner-terms/create')) return 0;
  const done = new Set(
    ((await terms.findAll({ where: { orgId }, attributes: ['supplierCustomerId'], raw: true })) as unknown as Row[]).map((r) => Number(r.supplierCustomerId)),
  );
  const rows = (await partners.findAll({ where: { orgId }, attributes: ['id', 'type'], order: [['id', 'ASC']], raw: true })) as unknown as Row[];
  let created = 0;
  for (const p of rows) {
    const freeDays = DEMO_FREE_DAYS[Number(p.type)];
    if (freeDays === undefined || done.has(Number(p.id))) continue;
    await call('/pool-partner-terms/create', { supplierCustomerId: Number(p.id), freeDays });
    created++;
  }
  return created;
}
