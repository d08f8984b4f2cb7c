/**
 * The public ship-order page (SPEC §7 Info `/info/ship-order`): what a driver or a receiver
 * sees after scanning the code on a delivery note — order, status, lines, containers — without
 * signing in. Tokens, throttle and calls are the platform's public link (ship-order.json
 * `publicLink`, docs/METADATA.md "Public links"); this file is what the page shows.
 */
import { Enums } from '@rti/metadata';
import type { PluginServerContext, RequestContext } from '@rti/server/plugin-api';

/** lines the public page shows at most (a 5,000-carrier order is summarised by container) */
export const INFO_MAX_LINES = 500;
/** the table of the tokens printed before the platform kept them (copied once into its own) */
const OLD_TOKEN_TABLE = 'shipping_info_token';

type Row = Record<string, any>;

/** What the public page shows of one order, read in the token's organisation. */
export async function publicOrder(ctx: PluginServerContext, call: RequestContext, shipOrderId: number): Promise<Row> {
  const orders = ctx.repo('ship-order', call);
  const [o] = await orders.serialize([await orders.find(shipOrderId)]);
  const lines = ctx.repo('ship-order-detail', call);
  const byContainer = new Map<string, { containerNo: string | null; quantity: number; received: number }>();
  const shown: Row[] = [];
  let total = 0;
  const Line = Enums.shipOrderLineStatus;
  for await (const chunk of lines.chunks({ shipOrderId }, 1000)) {
    for (const l of chunk) {
      total += 1;
      const key = String(l.containerNo ?? '');
      const c = byContainer.get(key) ?? { containerNo: (l.containerNo as string | null) ?? null, quantity: 0, received: 0 };
      if (Number(l.status) !== Line.extra) c.quantity += 1;
      if (Number(l.status) === Line.received || Number(l.status) === Line.extra) c.received += 1;
      byContainer.set(key, c);
      if (shown.length < INFO_MAX_LINES)
        shown.push({
          carrierSn: l.carrierSn,
          carrierCode: l.carrierCodeIdLabel ?? null,
          containerNo: l.containerNo ?? null,
          deliveryNo: l.deliveryNo ?? null,
          status: l.status,
          receiptTime: l.receiptTime ?? null,
        });
    }
  }
  // only what a driver or receiver needs: no ids, users or organisation internals
  return {
    order: {
      orderNo: o.orderNo,
      type: o.type,
      status: o.status,
      shipperWarehouse: o.shipperWarehouseIdLabel ?? null,
      receiverWarehouse: o.receiverWarehouseIdLabel ?? null,
      transportType: o.transportType ?? null,
      conveyanceNo: o.conveyanceNo ?? null,
      etd: o.etd ?? null,
      eta: o.eta ?? null,
      atd: o.atd ?? null,
      ata: o.ata ?? null,
      tor: o.tor ?? null,
      totalAmount: o.totalAmount ?? 0,
      receivedAmount: o.receivedAmount ?? 0,
      missingAmount: o.missingAmount ?? 0,
      extraAmount: o.extraAmount ?? 0,
    },
    containers: [...byContainer.values()].sort((a, b) => String(a.containerNo ?? '').localeCompare(String(b.containerNo ?? ''))),
    lines: shown,
    lineTotal: total,
    truncated: total > shown.length,
  };
}

export function registerInfo(ctx: PluginServerContext): void {
  // codes printed before the platform kept the tokens keep opening their order
  ctx.addMigration({
    name: '2026-11-27-shipping-info-token-to-public-link',
    async up({ queryInterface }) {
      if (!(await queryInterface.tableExists(OLD_TOKEN_TABLE))) return;
      await queryInterface.sequelize.query(
        `INSERT INTO sys_public_link (token, org_id, resource, record_id, created_at) SELECT token, orgId, 'ship-order', shipOrderId, createdAt FROM ${OLD_TOKEN_TABLE}`,
      );
      await queryInterface.dropTable(OLD_TOKEN_TABLE);
    },
  });
  ctx.publicLinks.reader('ship-order', (call, id) => publicOrder(ctx, call, id));
}
