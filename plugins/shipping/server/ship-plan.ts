/**
 * Ship plans (plugins/shipping/metadata/resources/ship-plan*.json, ship-cubing-plan.json): the
 * document, its number, lines, frozen states, roll-ups, the release/cancel steps behind
 * `/ship-plan/updatestatus` and the cubing-plan import are metadata. This file adds only what
 * metadata cannot say — SPEC §5's cubing rules — and SPEC's `/ship-plan-detail/batchcreate`:
 *
 * - a carrier code is planned once per plan: a second detail line of it is "added repeatedly";
 * - per carrier code, the cubing plan (how many go into which container) never totals more
 *   than the plan's details: checked whenever either side changes, so an import row, a lowered
 *   detail quantity or a removed detail line that would leave cubed boxes unplanned is refused;
 * - releasing needs the cubing total equal to the detail total for every carrier code.
 */
import { ApiError, ErrorCode, invalid, readId, type BoundRepository, type LinesEvent, type PluginServerContext } from '@rti/server/plugin-api';
import { Op } from 'sequelize';

type Row = Record<string, any>;
type Repo = (resource: string) => BoundRepository;

const PLAN = 'ship-plan';
const DETAIL = 'ship-plan-detail';
const CUBING = 'ship-cubing-plan';
/** Lines one batchcreate takes: a plan lists carrier codes, not carriers. */
const MAX_BATCH = 1000;

/** Quantity per carrier code over lines. */
function totals(lines: Iterable<Row>): Map<number, number> {
  const out = new Map<number, number>();
  for (const l of lines) {
    if (l.carrierCodeId === null || l.carrierCodeId === undefined) continue;
    const code = Number(l.carrierCodeId);
    out.set(code, (out.get(code) ?? 0) + (Number(l.qty) || 0));
  }
  return out;
}

/** The lines of one kind as this write leaves them: stored, minus removed, changed overlaid, plus added. */
async function linesAfter(e: LinesEvent, resource: string): Promise<Row[]> {
  // locking read: the latest committed lines (MariaDB's plain reads would see the transaction's snapshot)
  const stored = await e.repo(resource).rows({ shipPlanId: e.header.id }, { attributes: ['id', 'carrierCodeId', 'qty'], lock: 'share' });
  const byId = new Map(stored.map((r) => [Number(r.id), r]));
  if (e.child.resource === resource) {
    for (const r of e.removed) byId.delete(Number(r.id));
    for (const c of e.changed) byId.set(Number(c.previous.id), { ...c.previous, ...c.values });
    return [...byId.values(), ...e.added];
  }
  return [...byId.values()];
}

async function codeLabels(repo: Repo, ids: number[]): Promise<Map<number, string>> {
  const rows = await repo('carrier-code').rows({ id: { [Op.in]: ids } }, { attributes: ['id', 'code'] });
  return new Map(rows.map((r) => [Number(r.id), String(r.code)]));
}

/** Carrier codes this write touches (only they can newly break a rule). */
function touchedCodes(e: LinesEvent): Set<number> {
  const codes = [...e.added, ...e.removed, ...e.changed.flatMap((c) => [c.previous, c.values])].map((l) => l.carrierCodeId);
  return new Set(codes.filter((c) => c !== null && c !== undefined).map(Number));
}

async function checkLines(e: LinesEvent): Promise<void> {
  if (!e.added.length && !e.removed.length && !e.changed.some((c) => 'carrierCodeId' in c.values || 'qty' in c.values)) return;
  const title = String(e.header.shipPlanNo);
  const details = await linesAfter(e, DETAIL);
  if (e.child.resource === DETAIL) {
    const seen = new Set<number>();
    for (const l of details) {
      const code = Number(l.carrierCodeId);
      if (seen.has(code)) {
        const labels = await codeLabels(e.repo, [code]);
        throw new ApiError(ErrorCode.duplicate, 'shipping.shipPlan.carrierCodeRepeated', { code: labels.get(code) ?? String(code), title });
      }
      seen.add(code);
    }
  }
  const planned = totals(details);
  const cubed = totals(await linesAfter(e, CUBING));
  const touched = touchedCodes(e);
  const over = [...cubed].filter(([code, n]) => touched.has(code) && n > (planned.get(code) ?? 0));
  if (!over.length) return;
  const [code, n] = over[0];
  const labels = await codeLabels(e.repo, [code]);
  throw new ApiError(ErrorCode.validation, 'shipping.shipPlan.cubingExceeds', {
    code: labels.get(code) ?? String(code),
    cubed: n,
    planned: planned.get(code) ?? 0,
    title,
  });
}

/** Release: every carrier code's cubing total equals its detail total. */
async function checkCubingComplete(repo: Repo, plan: Row): Promise<void> {
  const title = String(plan.shipPlanNo);
  const planned = totals(await repo(DETAIL).rows({ shipPlanId: plan.id }, { attributes: ['carrierCodeId', 'qty'], lock: 'share' }));
  if (!planned.size) throw new ApiError(ErrorCode.statusForbidden, 'shipping.shipPlan.empty', { title });
  const cubed = totals(await repo(CUBING).rows({ shipPlanId: plan.id }, { attributes: ['carrierCodeId', 'qty'], lock: 'share' }));
  const codes = [...new Set([...planned.keys(), ...cubed.keys()])].sort((a, b) => a - b);
  const differs = codes.find((c) => (planned.get(c) ?? 0) !== (cubed.get(c) ?? 0));
  if (differs === undefined) return;
  const labels = await codeLabels(repo, [differs]);
  throw new ApiError(ErrorCode.statusForbidden, 'shipping.shipPlan.cubingDiffers', {
    code: labels.get(differs) ?? String(differs),
    cubed: cubed.get(differs) ?? 0,
    planned: planned.get(differs) ?? 0,
    title,
  });
}

export function registerShipPlan(ctx: PluginServerContext): void {
  // one rule for every writer: the atomic save, batchcreate, line delete, the cubing import
  ctx.documents.onLines(PLAN, checkLines);

  // Like an order, a plan may go to any warehouse of the organisation; only the shipper must be
  // one of a warehouse-restricted caller's own (the generic rule wants just one of the two).
  for (const action of ['create', 'update'] as const) {
    ctx.hooks.before(action, PLAN, (e) => {
      const allowed = e.ctx.warehouseIds;
      const shipper = e.data?.shipperWarehouseId;
      if (allowed === null || shipper === undefined || shipper === null) return;
      if (!allowed.includes(Number(shipper))) throw invalid('warehouse', 'shipperWarehouse');
    });
  }

  /**
   * `/ship-plan/setup`: the new plan form's warehouse choices — shippers: the caller's own
   * warehouses; receivers: every warehouse of the organisation (names only), as an order's.
   */
  ctx.addCall({
    path: '/ship-plan/setup',
    resource: PLAN,
    async handler({ ctx: call }) {
      const attrs = ['id', 'code', 'name', 'available'];
      const mine = await ctx.repo('warehouse', call).rows({}, { attributes: attrs, order: [['code', 'ASC']], limit: 5000 });
      const all =
        call.warehouseIds === null || call.orgId === null
          ? mine
          : await ctx.repo('warehouse', ctx.systemContext(call.orgId, call.language)).rows({}, { attributes: attrs, order: [['code', 'ASC']], limit: 5000 });
      const choice = (w: Row) => ({ id: Number(w.id), code: w.code, name: w.name, available: w.available !== false && w.available !== 0 });
      const usable = mine.filter((w) => w.available !== false && w.available !== 0);
      return {
        defaults: { shipperWarehouseId: usable.length === 1 ? Number(usable[0].id) : null },
        shipperWarehouses: mine.map(choice),
        receiverWarehouses: all.map(choice),
      };
    },
  });
  ctx.transitions.on(PLAN, 'release', async (e) => {
    for (const plan of e.rows) await checkCubingComplete(e.repo, plan);
  });

  /**
   * SPEC's `/ship-plan-detail/batchcreate` `{ shipPlanId, lines: [{ carrierCodeId, qty,
   * containerId?, containerNo?, remark? }] }`: adds detail lines to a new plan, all or none;
   * each line passes the field rules, the frozen-lines rule and the cubing rules.
   */
  ctx.addCall({
    path: '/ship-plan-detail/batchcreate',
    resource: DETAIL,
    async handler({ body, ctx: call }) {
      const shipPlanId = readId(body, 'shipPlanId', { required: true })!;
      const lines = body.lines;
      if (!Array.isArray(lines) || !lines.length) throw invalid('required', 'lines');
      if (lines.length > MAX_BATCH) throw invalid('lengthMax', 'lines', { max: MAX_BATCH });
      lines.forEach((l, i) => {
        if (l === null || typeof l !== 'object' || Array.isArray(l)) throw invalid('type', `lines[${i}]`, { expected: 'object' });
      });
      await ctx.repo(PLAN, call).find(shipPlanId);
      const ids = await ctx.transaction(call, async (repo) => {
        const out: number[] = [];
        for (const l of lines as Row[]) {
          const { id: _id, shipPlanId: _fk, ...values } = l;
          out.push(Number((await repo(DETAIL).create({ ...values, shipPlanId })).id));
        }
        return out;
      });
      return { added: ids.length, ids, plan: await ctx.repo(PLAN, call).get({ id: shipPlanId }) };
    },
  });
}
