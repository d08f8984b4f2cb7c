/**
 * Metadata overlays: a platform administrator changes a generated screen at run time and
 * every consumer follows — /metadata (labels per language, column order, visibility),
 * validation (a stricter required flag, named with the overlay label in the caller's
 * language), defaults on create — while bad overlays are refused whole, organisation users
 * may not write them, removing one restores the base, and a second instance catches up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type RtiServer } from '../src/index';
import { startTestServer, type Caller, type TestServer } from './support/test-server';

let ts: TestServer;
let platform: Caller;
const RES = 'supplier-customer';
const field = (meta: any, name: string) => meta.resources[RES].fields.find((f: any) => f.name === name);

beforeAll(async () => {
  ts = await startTestServer();
  platform = await ts.callerFor(await ts.addUser(ts.orgA, 'platform', { sysOrgUser: true }), ts.orgA);
});
afterAll(() => ts?.close());

const overlay = {
  resource: RES,
  columns: ['name', 'shortName'],
  fields: {
    shortName: { label: { 'en-US': 'Abbreviation', 'zh-CN': '简码' }, help: { 'en-US': 'As printed on labels' }, required: true, listWidth: 160 },
    type: { default: 20 },
    contact1: { listVisible: false },
    remark: { show: false },
  },
};

describe('metadata overlays', () => {
  it('only platform users write overlays; organisation admins are refused in their language', async () => {
    const r = await ts.a.call('/metadata/overlay/update', overlay, { language: 'ja-JP' });
    expect(r.body.code).toBe(10005);
    expect(r.body.message).toContain('プラットフォーム管理者');
  });

  it('refuses a bad overlay whole, naming every problem', async () => {
    const r = await platform.call(
      '/metadata/overlay/update',
      {
        resource: RES,
        fields: { name: { required: false }, nope: { show: false }, type: { default: 99 }, shortName: { listWidth: 5, label: { 'en-US': '' } } },
      },
      { language: 'en-US' },
    );
    expect(r.body.code).toBe(10001);
    for (const p of ['/fields/name/required', '/fields/nope', '/fields/type/default', '/fields/shortName/listWidth', '/fields/shortName/label/en-US'])
      expect(r.body.message).toContain(p);
    expect((await platform.call('/metadata/overlay/list')).body.data).toEqual([]);
    expect((await platform.call('/metadata/overlay/update', { resource: 'no-such' })).body.code).toBe(10002);
  });

  it('an accepted overlay reaches /metadata, validation, defaults and the list of overlays', async () => {
    const saved = await platform.call('/metadata/overlay/update', overlay);
    expect(saved.body.code, saved.body.message).toBe(0);

    const meta = (await ts.a.call('/metadata')).body.data as any;
    const short = field(meta, 'shortName');
    expect(short.required).toBe(true);
    expect(short.list).toMatchObject({ width: 160, order: 1 });
    expect(field(meta, 'name').list.order).toBe(0);
    expect(field(meta, 'contact1').list.visible).toBe(false);
    expect(field(meta, 'remark').show).toBe(false);
    expect(meta.texts['en-US'][short.label]).toBe('Abbreviation');
    expect(meta.texts['zh-CN'][short.label]).toBe('简码');
    // a language the administrator left out keeps the base label
    expect(meta.texts['ja-JP'][short.label]).toBeTruthy();
    expect(meta.texts['ja-JP'][short.label]).not.toBe('Abbreviation');
    expect(meta.texts['en-US'][short.form.help]).toBe('As printed on labels');

    const missing = await ts.a.call(`/${RES}/create`, { name: 'Overlay Co' }, { language: 'zh-CN' });
    expect(missing.body.code).toBe(10001);
    expect(missing.body.message).toContain('简码');

    const created = await ts.a.call(`/${RES}/create`, { name: 'Overlay Co', shortName: 'OC' });
    expect(created.body.code, created.body.message).toBe(0);
    const row = (await ts.a.call(`/${RES}`, { id: created.body.data.id })).body.data as any;
    expect(row.type).toBe(20);

    const one = (await ts.a.call('/metadata/overlay/get', { resource: RES })).body.data as any;
    expect(one.overlay).toEqual(overlay);
    expect(one.base.fields.find((f: any) => f.name === 'shortName').required).toBeUndefined();
    const list = (await ts.a.call('/metadata/overlay/list')).body.data as any[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ resource: RES, updatedBy: 'platform', overlay: { columns: ['name', 'shortName'] } });
  });

  it('a second server instance on the same database catches up within seconds', async () => {
    const second: RtiServer = await createServer({ plugins: false, logError: () => undefined, databaseUrl: ts.db.url });
    try {
      const { url } = await second.listen(0);
      const metaOf = async () => {
        const res = await fetch(`${url}/api/metadata`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', Token: ts.a.token, OrgId: String(ts.orgA) },
          body: '{}',
        });
        return ((await res.json()) as any).data;
      };
      expect(field(await metaOf(), 'shortName').required).toBe(true); // read at start
      expect((await platform.call('/metadata/overlay/update', { resource: RES, fields: { shortName: { required: true } } })).body.code).toBe(0);
      await expect.poll(async () => field(await metaOf(), 'shortName').label, { timeout: 12000, interval: 500 }).toBeUndefined();
    } finally {
      await second.close();
    }
  });

  it('removing the overlay restores the base screen and rules', async () => {
    expect((await platform.call('/metadata/overlay/delete', { resource: RES })).body.code).toBe(0);
    const meta = (await ts.a.call('/metadata')).body.data as any;
    expect(field(meta, 'shortName').required).toBeUndefined();
    expect(field(meta, 'shortName').label).toBeUndefined();
    expect(meta.texts['en-US']).toEqual({});
    const created = await ts.a.call(`/${RES}/create`, { name: 'Base Co', type: 10 });
    expect(created.body.code, created.body.message).toBe(0);
  });
});
