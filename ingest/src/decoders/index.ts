import { decodeBeaconScan } from './beacon-scan';
import { decodeGatewayHeartbeat } from './gateway-heartbeat';
import { decodeGpsReport } from './gps-report';
import type { TopicKind } from './topics';
import type { DecodeContext, DecodeResult } from './types';

export * from './types';
export * from './topics';
export { decodeBeaconScan, decodeGatewayHeartbeat, decodeGpsReport };

export function decodeByKind(kind: TopicKind, payload: Buffer | string, ctx: DecodeContext): DecodeResult {
  switch (kind) {
    case 'scan':
      return decodeBeaconScan(payload, ctx);
    case 'heartbeat':
    case 'state':
      return decodeGatewayHeartbeat(payload, ctx, kind);
    case 'report':
      return decodeGpsReport(payload, ctx);
  }
}
