/**
 * Pool analytics (issue 19 item 5): cycle time, turns per year and dwell (turns.ts), partner
 * balances, their history and the monthly partner statement with its PDF and mail (partners.ts),
 * and the pool-size check (pool-size.ts) — each a report definition with its page and chart.
 * Figures come from the in/out history (carrier-inout) — turns and pool size through the flows the
 * platform keeps per day and month (ctx.rollups, store pool-flow) — inventory's carriers and daily
 * closing snapshots, read through the caller's scoped repository.
 */
import { definePlugin } from '@rti/server/plugin-api';
import { definePartners } from './partners';
import { definePoolSize } from './pool-size';
import { defineFlows, defineTurns } from './turns';

export default definePlugin({
  id: 'pool-analytics',
  dependsOn: ['inventory'],
  server(ctx) {
    const flows = defineFlows(ctx);
    defineTurns(ctx, flows);
    definePartners(ctx);
    definePoolSize(ctx, flows);
  },
});
