/**
 * SPEC §7's maintenance record calls beyond the generated ones: `listmore` (SPEC's name of the
 * list) and `bycarrier` (a carrier's repair history, newest first).
 */
import type { PluginServerContext } from '@rti/server/plugin-api';
import { RECORD } from './common';

export function registerCalls(ctx: PluginServerContext): void {
  ctx.addCall({
    path: '/carrier-asset-maintenance-record/listmore',
    handler: ({ body, ctx: call }) => ctx.repo(RECORD, call).list(body),
  });
  ctx.addCall({
    path: '/carrier-asset-maintenance-record/bycarrier',
    input: { carrierId: { type: 'ref', label: 'fields.carrier', required: true } },
    paging: true,
    handler: ({ input, ctx: call }) => ctx.repo(RECORD, call).list({ carrierId: input.carrierId, page: input.page, limit: input.limit }),
  });
}
