/**
 * The map plugin's service for other plugins (`provides: ['map']`): a subject's track over a
 * time range, with the map's scope, downsampling and stop detection. `ctx.use('map')` from a
 * plugin that declares `dependsOn: ['map']`.
 */
import type { RequestContext } from '@rti/server/plugin-api';
import type { HistoryAnswer, HistoryQuery } from './history';

export type { HistoryAnswer, HistoryQuery };

export interface MapApi {
  history(call: RequestContext, q: HistoryQuery): Promise<HistoryAnswer>;
}

declare module '@rti/server/plugin-api' {
  interface PluginServices {
    map: MapApi;
  }
}
