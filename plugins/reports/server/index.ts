/**
 * Reports (issue 19): SPEC's report group as report definitions (docs/PLUGINS.md "Reports") —
 * daily and weekly inventory (inventory-reports.ts), three-batch (three-batch.ts) and idle
 * carriers (idle.ts). Every figure is read from the inventory plugin: its daily closing
 * snapshots for closed days and its figures reader for now, so a report never counts carriers
 * a second way.
 */
import { definePlugin } from '@rti/server/plugin-api';
import type {} from '@rti/plugin-telemetry/api';
import { defineIdle } from './idle';
import { defineInventoryReports } from './inventory-reports';
import { defineThreeBatch } from './three-batch';

export default definePlugin({
  id: 'reports',
  dependsOn: ['inventory'],
  // last sightings of idle carriers, when the telemetry engine runs
  optionalDependsOn: ['telemetry'],
  server(ctx) {
    defineInventoryReports(ctx);
    defineThreeBatch(ctx);
    defineIdle(ctx);
  },
});
