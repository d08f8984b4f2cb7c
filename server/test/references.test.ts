/**
 * Delete integrity over every reference the metadata declares (issue 10 #4, issue 13 #7):
 * for each ref/refs field, a fresh target row and one row pointing at it; deleting the target
 * is refused naming the referrer (restrict), or takes the referrer along (cascade), empties
 * its field (clear) or leaves it as history (keep). The organisation's ownership of every
 * org-scoped resource is checked the same way, and a plugin-declared reference too.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMetadata, resourceApiPath, type ResourceDef } from '@rti/metadata';
import { referencesTo } from '../src/resources/references';
import { rowsInBothOrgs, type OrgRows } from './access-fixtures';
import { sampleBody } from './support/samples';
import { startTestServer, type Caller, type TestServer } from './support/test-server';

const metadata = loadMetadata();
const pluginsDir = fileURLToPath(new URL('./support/plugins-references', import.meta.url));
const orgResource = Object.values(metadata.resources).find((r) => r.orgField === 'id')!;
const targets = Object.values(metadata.resources).filter((r) => r !== orgResource && r.calls?.delete !== false);
const cases = targets.flatMap((target) => referencesTo(metadata, target.name).map((ref) => ({ target, ref })));

let ts: TestServer;
let rows: OrgRows;
let n = 20_000;

beforeAll(async () => {
  ts = await startTestServer({ metadata, plugins: true, config: { pluginsDir } });
  rows = await rowsInBothOrgs(ts);
}, 120_000);
afterAll(() => ts?.close());

const refsOfA = () => {
  const refs: Record<string, number> = { organization: ts.orgA };
  for (const [k, v] of Object.entries(rows.a)) refs[k] = v.id;
  return refs;
};

/** A row straight into the table (as the system writes logs and alerts), in `orgId`. */
async function insert(res: ResourceDef, values: Record<string, unknown>, orgId = ts.orgA): Promise<number> {
  const body = { ...sampleBody(res, metadata, n++, refsOfA(), rows.second.a), ...values };
  const owner = res.orgScoped && res.orgField !== 'id' ? { [res.orgField ?? 'orgId']: orgId } : {};
  const made = await ts.server.db.models[res.name].create({ ...body, ...owner });
  return Number(made.get('id'));
}

const findRow = (res: ResourceDef, id: number) => ts.server.db.models[res.name].findByPk(id);
const label = (lang: 'en-US' | 'zh-CN' | 'ja-JP', res: ResourceDef) => ts.server.t(lang, res.label ?? `resources.${res.name}`);

it('finds references to check, of every kind', () => {
  const kinds = new Set(cases.map((c) => c.ref.onDelete));
  expect([...kinds].sort()).toEqual(['cascade', 'clear', 'keep', 'restrict']);
  expect(cases.length).toBeGreaterThan(40);
});

describe.each(cases.map((c) => [`${c.ref.from.name}.${c.ref.field} → ${c.target.name} (${c.ref.onDelete})`, c] as const))('%s', (_, { target, ref }) => {
  it('deleting the target follows the declared rule', async () => {
    const targetId = await insert(target, {});
    const pointer = ref.many ? [targetId] : targetId;
    const fromId = await insert(ref.from, { [ref.field]: pointer });
    expect((await findRow(ref.from, fromId))!.get(ref.field)).toEqual(pointer);
    const del = resourceApiPath(target, 'delete');

    if (ref.onDelete === 'restrict') {
      for (const lang of ['en-US', 'zh-CN', 'ja-JP'] as const) {
        const refused = await ts.a.call(del, { id: targetId }, { language: lang });
        expect(refused.body.code, refused.body.message).toBe(10004);
        expect(refused.body.message).toContain(label(lang, ref.from));
        expect(refused.body.message).toContain(label(lang, target));
      }
      expect(await findRow(target, targetId)).not.toBeNull();
      // once the referrer is gone, the target goes
      await ts.server.db.models[ref.from.name].destroy({ where: { id: fromId } });
      expect((await ts.a.call(del, { id: targetId })).body).toMatchObject({ code: 0, data: { deleted: 1 } });
      return;
    }
    const done = await ts.a.call(del, { id: targetId });
    expect(done.body, done.body.message).toMatchObject({ code: 0, data: { deleted: 1 } });
    expect(await findRow(target, targetId)).toBeNull();
    const after = await findRow(ref.from, fromId);
    if (ref.onDelete === 'cascade') expect(after).toBeNull();
    if (ref.onDelete === 'keep') expect(after!.get(ref.field)).toEqual(pointer);
    if (ref.onDelete === 'clear') expect(after!.get(ref.field)).toEqual(ref.many ? [] : null);
  });
});

describe('restrict', () => {
  it('counts per kind and names only the rows in use; a batch is all or nothing', async () => {
    const code = metadata.resources['carrier-code'];
    const carrier = metadata.resources.carrier;
    const free = await insert(code, {});
    const used = await insert(code, {});
    for (let i = 0; i < 3; i++) await insert(carrier, { carrierCodeId: used });
    await insert(metadata.resources.part, { carrierCodeId: used });
    const usedCode = String((await findRow(code, used))!.get('code'));
    const freeCode = String((await findRow(code, free))!.get('code'));
    const refused = await ts.a.call('/carrier-code/delete', { ids: [free, used] });
    expect(refused.body.code).toBe(10004);
    expect(refused.body.message).toBe(`Carrier code ${usedCode} cannot be deleted: still used by 3 × Carrier, 1 × Part. Change or delete those first.`);
    expect(refused.body.message).not.toContain(freeCode);
    expect(await findRow(code, free)).not.toBeNull();
    const zh = await ts.a.call('/carrier-code/delete', { ids: [free, used] }, { language: 'zh-CN' });
    expect(zh.body.message).toContain(`3 条${label('zh-CN', carrier)}`);
  });

  it('names each field when one resource points through several', async () => {
    const wh = metadata.resources.warehouse;
    const id = await insert(wh, {});
    await insert(metadata.resources.carrier, { warehouseId: id, inboundWarehouseId: id, outboundWarehouseId: null });
    const refused = await ts.a.call('/warehouse/delete', { id });
    expect(refused.body.code).toBe(10004);
    expect(refused.body.message).toMatch(/1 × Carrier \(.+\), 1 × Carrier \(.+\)/);
  });

  it('holds for references a plugin declares', async () => {
    const model = await insert(metadata.resources['device-model'], {});
    expect((await ts.a.call('/uses/note', { deviceModelId: model })).body.code).toBe(0);
    const refused = await ts.a.call('/device-model/delete', { id: model });
    expect(refused.body.code).toBe(10004);
    expect(refused.body.message).toContain('1 × uses.notes');
  });
});

describe('organisation ownership', () => {
  let orgId: number;
  let olga: Caller;
  const owned = Object.values(metadata.resources).filter((r) => r.orgScoped && r.orgField !== 'id');

  beforeAll(async () => {
    orgId = Number((await ts.server.db.models.organization.create({ code: 'DOOMED', name: 'Doomed org', entryCode: 'doomed' })).get('id'));
    // a platform user of A who also belongs to the doomed organisation
    const user = await ts.addUser(ts.orgA, 'olga', { organizationIds: [ts.orgA, orgId] });
    olga = await ts.callerFor(user, ts.orgA);
  });

  it.each(owned.map((r) => [r.name, r] as const))('rows of %s keep their organisation', async (_, res) => {
    const id = await insert(res, {}, orgId);
    const refused = await olga.call('/organization/delete', { id: orgId }, { language: 'ja-JP' });
    expect(refused.body.code).toBe(10004);
    expect(refused.body.message).toContain('Doomed org');
    expect(refused.body.message).toContain(`${label('ja-JP', res)} 1 件`);
    await ts.server.db.models[res.name].destroy({ where: { id } });
  });

  it("an organisation that owns nothing is deleted; memberships of other organisations' users go with it", async () => {
    const done = await olga.call('/organization/delete', { id: orgId });
    expect(done.body, done.body.message).toMatchObject({ code: 0, data: { deleted: 1 } });
    expect((await ts.server.db.models.user.findByPk(olga.userId))!.get('organizationIds')).toEqual([ts.orgA]);
  });
});
