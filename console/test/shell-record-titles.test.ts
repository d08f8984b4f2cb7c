// Records are named by their title field (serial, code, order number), not "#123": in tab
// and breadcrumb titles once any row of the record was read, in restored tabs through the
// saved title, and in delete confirmations — in all three languages.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ResourceDef } from '@rti/metadata/browser';
import { createDataProvider } from '../src/providers/data-provider';
import { clearRecordTitles, recordTitle, titleOf } from '../src/providers/record-titles';
import { pageTitle } from '../src/routes/page-title';
import type { PageRoute } from '../src/lib/routes';
import { createTabStore, tabsStorageKey } from '../src/components/tabs/tab-store';
import { restoreTabs } from '../src/components/tabs/tab-rules';
import { deleteQuestion, labelInSentence } from '../src/meta/lib/record-name';
import { ensureLocale, i18n, initI18n } from '../src/i18n';
import metaEn from '../src/meta/locales/en-US.json';
import metaZh from '../src/meta/locales/zh-CN.json';
import metaJa from '../src/meta/locales/ja-JP.json';

const carrier = {
  name: 'carrier',
  route: '/carrier/management/carrier',
  titleField: 'sn',
  fields: [{ name: 'sn', type: 'string' }],
} as unknown as ResourceDef;
const bindDetail = {
  name: 'carrier-bind-detail',
  route: '/carrier/management/carrier-bind-detail',
  titleField: 'carrierId',
  fields: [{ name: 'carrierId', type: 'ref', ref: { resource: 'carrier', label: 'sn' } }],
} as unknown as ResourceDef;
const defs: Record<string, ResourceDef> = { carrier, 'carrier-bind-detail': bindDetail };

const showRoute: PageRoute = {
  key: 'carrier:show',
  path: `${carrier.route}/detail/:id`,
  title: 'resources.carrier',
  kind: 'resource',
  screen: 'show',
  resource: carrier,
};
const editRoute: PageRoute = { ...showRoute, key: 'carrier:edit', path: `${carrier.route}/edit/:id`, screen: 'edit' };

function serve(data: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ code: 0, message: 'Success', data }), { headers: { 'content-type': 'application/json' } })),
  );
}

beforeAll(async () => {
  await initI18n();
  await ensureLocale('zh-CN');
  await ensureLocale('ja-JP');
  i18n.addResourceBundle('en-US', 'translation', { ...metaEn, resources: { carrier: 'Carrier', 'device-gps': 'GPS device' } }, true, true);
  i18n.addResourceBundle('zh-CN', 'translation', { ...metaZh, resources: { carrier: '载具' } }, true, true);
  i18n.addResourceBundle('ja-JP', 'translation', { ...metaJa, resources: { carrier: 'キャリア' } }, true, true);
});
afterEach(async () => {
  clearRecordTitles();
  vi.unstubAllGlobals();
  localStorage.clear();
  await i18n.changeLanguage('en-US');
});

describe('record titles', () => {
  it('take the title field, or the label of a reference title field', () => {
    expect(titleOf(carrier, { id: 7, sn: 'DEMO-C000123' })).toBe('DEMO-C000123');
    expect(titleOf(bindDetail, { id: 3, carrierId: 7, carrierIdLabel: 'DEMO-C000123' })).toBe('DEMO-C000123');
    expect(titleOf(carrier, { id: 7, sn: '' })).toBeUndefined();
  });

  it('a page title says "#id" until a row of the record was read, then its title', async () => {
    const t = i18n.t.bind(i18n);
    expect(pageTitle(showRoute, { id: '123' }, t)).toBe('Carrier #123');
    serve({ id: 123, sn: 'DEMO-C000123' });
    await createDataProvider((n) => defs[n]).getOne({ resource: 'carrier', id: '123' });
    expect(pageTitle(showRoute, { id: '123' }, t)).toBe('Carrier DEMO-C000123');
    expect(pageTitle(editRoute, { id: '123' }, t)).toBe('Edit Carrier DEMO-C000123');
    await i18n.changeLanguage('zh-CN');
    expect(pageTitle(editRoute, { id: '123' }, i18n.t.bind(i18n))).toBe('编辑载具 DEMO-C000123');
    await i18n.changeLanguage('ja-JP');
    expect(pageTitle(editRoute, { id: '123' }, i18n.t.bind(i18n))).toBe('キャリア DEMO-C000123 を編集');
  });

  it('list rows and saves name their records too', async () => {
    const dp = createDataProvider((n) => defs[n]);
    serve({
      list: [
        { id: 1, sn: 'A-1' },
        { id: 2, sn: 'A-2' },
      ],
      total: 2,
    });
    await dp.getList({ resource: 'carrier', pagination: { currentPage: 1, pageSize: 10 } });
    expect([recordTitle('carrier', 1), recordTitle('carrier', '2')]).toEqual(['A-1', 'A-2']);
    serve({ id: 2 });
    await dp.update({ resource: 'carrier', id: '2', variables: { sn: 'A-2-RENAMED' } });
    expect(recordTitle('carrier', 2)).toBe('A-2-RENAMED');
  });

  it('a record tab keeps its title across a reload (saved with the tabs, restored before the row is read)', () => {
    const index = { key: '/dashboard-home', path: '/dashboard-home', title: 'pages.home' };
    const key = `${carrier.route}/detail/123`;
    const store = createTabStore('9', index, (t) => t);
    store.open({ key, path: key, title: 'resources.carrier' });
    store.retitle(key, 'DEMO-C000123');
    const saved = JSON.parse(localStorage.getItem(tabsStorageKey('9'))!);
    const restored = restoreTabs(index, saved, (t) => ({ key: t.key, path: t.path, title: t.title, titleArgs: t.titleArgs }));
    expect(restored.tabs[1].titleArgs).toEqual({ title: 'DEMO-C000123' });
    expect(pageTitle(showRoute, { id: '123' }, i18n.t.bind(i18n), restored.tabs[1].titleArgs!.title)).toBe('Carrier DEMO-C000123');
  });

  it('delete confirmations name the record: "Delete carrier DEMO-C000123?" in every language', async () => {
    const t = (k: string, o?: Record<string, unknown>) => String(i18n.t(k, o as never));
    const row = { id: 123, sn: 'DEMO-C000123' };
    expect(deleteQuestion(t, carrier, row)).toBe('Delete carrier DEMO-C000123?');
    expect(deleteQuestion(t, carrier, { id: 5 })).toBe('Delete carrier #5?');
    await i18n.changeLanguage('zh-CN');
    expect(deleteQuestion(t, carrier, row)).toBe('确定删除载具 DEMO-C000123吗？');
    await i18n.changeLanguage('ja-JP');
    expect(deleteQuestion(t, carrier, row)).toBe('キャリア DEMO-C000123 を削除しますか？');
  });

  it('labels start small inside an English sentence unless they start with an acronym', () => {
    expect(labelInSentence('Carrier code', 'en-US')).toBe('carrier code');
    expect(labelInSentence('GPS device', 'en-US')).toBe('GPS device');
    expect(labelInSentence('载具', 'zh-CN')).toBe('载具');
  });
});
