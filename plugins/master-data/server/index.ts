/**
 * Master data (issue "Master data complete"): the extra SPEC §7 calls around the metadata
 * resources and the rules metadata cannot express, all on the plugin API — calls through
 * the one registry and guard, rows through the scoped repository, rules as write hooks.
 */
import { definePlugin } from '@rti/server/plugin-api';
import { installCarrierCalls } from './carrier-calls';
import { installCarrierDefaults } from './carrier-defaults';
import { installConfigCalls } from './config-calls';
import { installDeviceBinding } from './device-binding';
import { installLookupCalls } from './lookup-calls';
import { installRecordRules } from './record-rules';
import { installWarehouseCalls } from './warehouse-calls';

export default definePlugin({
  id: 'master-data',
  server(ctx) {
    installCarrierDefaults(ctx);
    installDeviceBinding(ctx);
    installRecordRules(ctx);
    installLookupCalls(ctx);
    installWarehouseCalls(ctx);
    installCarrierCalls(ctx);
    installConfigCalls(ctx);
  },
});
