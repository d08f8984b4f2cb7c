/**
 * Shipping: the domain side effects of the ship-order, delivery and receipt documents
 * (plugins/shipping/metadata). The documents, their numbers, lines, frozen states and
 * status steps are metadata; this plugin only adds what carriers do when a step runs
 * (movement.ts), the rules over lines, and SPEC's extra calls (calls.ts).
 */
import { Enums } from '@rti/metadata';
import { ApiError, ErrorCode, definePlugin } from '@rti/server/plugin-api';
import type {} from '@rti/plugin-telemetry/api';
import { Op } from 'sequelize';
import { registerCalls } from './calls';
import { shippingListImport } from './import';
import { registerLineCalls } from './line-calls';
import { registerMapCalls } from './map-calls';
import { registerInfo } from './info';
import { registerShipPlan } from './ship-plan';
import { registerTrucks } from './trucks';
import { installMaritime } from './maritime';
import { installTelemetryAgreement } from './telemetry-agreement';
import { installTransportClock } from './transport-clock';
import { IN_STOCK, installMovement, notInWarehouse, snList } from './movement';
import { readOrderGroups } from './statuses';

const Line = Enums.shipOrderLineStatus;
/** carrier statuses that may be shipped */
const USABLE: number[] = [Enums.carrierStatus.new, Enums.carrierStatus.inUse, Enums.carrierStatus.standby];

export default definePlugin({
  id: 'shipping',
  optionalDependsOn: ['telemetry'],
  server(ctx) {
    readOrderGroups(ctx.metadata);
    // the documents' steps and the line steps they run: what the carriers do (movement.ts)
    installMovement(ctx);

    // ---- rules over lines ----------------------------------------------------------------------
    ctx.documents.onLines('ship-order', async (e) => {
      if (!e.added.length && !e.changed.some((c) => 'carrierId' in c.values)) return;
      const incoming = [...e.added, ...e.changed.filter((c) => 'carrierId' in c.values).map((c) => c.values)];
      const ids = [...new Set(incoming.map((l) => Number(l.carrierId)))];
      // The carrier rows are the lock two writers adding one carrier to two orders both take:
      // the second waits here until the first commits, then its locking read below sees the
      // first's line (one open order per carrier holds under concurrency, not just in sequence).
      const carriers = await e
        .repo('carrier')
        .rows({ id: { [Op.in]: ids } }, { attributes: ['id', 'sn', 'carrierCodeId', 'warehouseId', 'transportStatus', 'status'], lock: 'update' });
      const shipper = Number(e.header.shipperWarehouseId);
      const away = carriers.filter((c) => Number(c.warehouseId) !== shipper || !IN_STOCK.includes(Number(c.transportStatus)));
      if (away.length) {
        const [wh] = await e.repo('warehouse').rows({ id: shipper }, { attributes: ['name'] });
        throw notInWarehouse(away, { shipperWarehouseIdLabel: wh?.name ?? shipper }, 'shipperWarehouse');
      }
      const unusable = carriers.filter((c) => c.status !== null && c.status !== undefined && !USABLE.includes(Number(c.status)));
      if (unusable.length)
        throw new ApiError(ErrorCode.statusForbidden, 'shipping.carrierUnavailable', {
          sns: snList(unusable.map((c) => String(c.sn))),
          importCode: Enums.sharedImportError.carrierUnavailable,
        });
      // one open order per carrier and the serial/code snapshots are the metadata's (exclusive, snapshot)
    });
    // a delivery ships lines of its order: its carriers must be pending there
    ctx.documents.onLines('delivery', async (e) => {
      const incoming = [...e.added, ...e.changed.filter((c) => 'carrierId' in c.values).map((c) => c.values)];
      if (!incoming.length) return;
      const ids = [...new Set(incoming.map((l) => Number(l.carrierId)))];
      const pending = new Set(
        (
          await e
            .repo('ship-order-detail')
            .rows({ shipOrderId: e.header.shipOrderId, carrierId: { [Op.in]: ids }, status: Line.pending }, { attributes: ['carrierId'] })
        ).map((r) => Number(r.carrierId)),
      );
      const foreign = incoming.filter((l) => !pending.has(Number(l.carrierId)));
      if (foreign.length)
        throw new ApiError(ErrorCode.statusForbidden, 'shipping.notOnOrder', {
          sns: snList(foreign.map((l) => String(l.carrierSn ?? l.carrierId))),
          importCode: Enums.sharedImportError.carrierUnavailable,
        });
    });

    // shipping-list import: per-row SPEC §8 reasons a chunk at a time (import.ts)
    ctx.imports.validator('ship-order-detail', shippingListImport(ctx));

    registerCalls(ctx);
    registerLineCalls(ctx);
    registerMapCalls(ctx);
    registerShipPlan(ctx);
    // trucks report and the public order page (the printed delivery note is the metadata's `print`)
    registerTrucks(ctx);
    registerInfo(ctx);
    // gate passes confirm the shipping lists; the transport clock; vessels (maritime)
    installTelemetryAgreement(ctx);
    installTransportClock(ctx);
    installMaritime(ctx);
  },
});
