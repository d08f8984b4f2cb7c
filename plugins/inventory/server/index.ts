/**
 * Inventory (issue 18): adjustment orders (declared in plugins/inventory/metadata; the carriers'
 * move is adjustment.ts), the inventory views per warehouse and carrier code (views.ts) and the
 * daily closing snapshots they read history from (snapshots.ts).
 */
import { definePlugin } from '@rti/server/plugin-api';
import type {} from '@rti/plugin-telemetry/api';
import { installAdjustments } from './adjustment';
import { installCounts } from './count';
import { installLoss } from './loss';
import { installRebalance } from './rebalance';
import { installSilent } from './silent';
import { maintainedStock } from './stock';
import { installViews } from './views';

export default definePlugin({
  id: 'inventory',
  // shipping's documents (ship orders) are read through the metadata and the scoped repository
  dependsOn: ['shipping'],
  optionalDependsOn: ['telemetry'],
  server(ctx) {
    // counts per warehouse and code kept by triggers on the carrier table: what the realtime figures read
    maintainedStock(ctx).install();
    const closing = installViews(ctx);
    // a back-dated adjustment corrects the days already closed
    installAdjustments(ctx, (e, moves) => closing.correct(e.ctx, e.transaction, e.at, moves));
    // book versus seen: carriers the books place in a warehouse that nothing has heard there
    const silentRows = installSilent(ctx);
    // count tasks made from it; closing one moves or writes off carriers through adjustment orders
    installCounts(ctx, silentRows);
    // loss rates: what closed counts wrote off, per month, warehouse (customer) and code
    installLoss(ctx);
    // rebalancing suggestions, each turned into a draft ship order by the ship order's own writes
    installRebalance(ctx);
  },
});
