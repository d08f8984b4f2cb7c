/**
 * Where the last known positions come from: the telemetry plugin's derived-state engine
 * (carrier and device states, in memory, updated per stored batch), read without creating
 * anything. The map declares `dependsOn: ['telemetry']`, so the service is always there.
 */
import type { PluginServerContext } from '@rti/server/plugin-api';
import type { Positions } from '@rti/plugin-telemetry/api';

export type { Positions };

export const positionsOf = (ctx: PluginServerContext): Positions => ctx.use('telemetry').positions;
