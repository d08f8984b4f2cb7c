import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTranslator, pluginMessages } from '../src/i18n';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function pluginsWith(files: Record<string, unknown>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-messages-'));
  dirs.push(root);
  for (const [rel, doc] of Object.entries(files)) {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc));
  }
  return root;
}

describe('plugin server texts', () => {
  it('are in the server translator under the plugin id, per language, with en-US as the fallback', () => {
    const dir = pluginsWith({
      'acme/server/messages/en-US.json': { acme: { mail: { subject: 'Report for {{day}}' }, only: 'English only' } },
      'acme/server/messages/zh-CN.json': { acme: { mail: { subject: '{{day}} 的报表' } } },
    });
    const { t } = loadTranslator(undefined, dir);
    expect(t('zh-CN', 'acme.mail.subject', { day: '2026-11-22' })).toBe('2026-11-22 的报表');
    expect(t('ja-JP', 'acme.mail.subject', { day: '2026-11-22' })).toBe('Report for 2026-11-22');
    expect(t('zh-CN', 'acme.only')).toBe('English only');
    // core texts are still there
    expect(t('zh-CN', 'server.success')).not.toBe('server.success');
  });

  it('refuse a file that writes outside the plugin id, or is not JSON, naming the plugin', () => {
    expect(() => pluginMessages(pluginsWith({ 'acme/server/messages/en-US.json': { acme: {}, server: { success: 'hijacked' } } }))).toThrow(
      /plugin "acme": server\/messages\/en-US.json must hold its texts under one key, "acme"/,
    );
    expect(() => pluginMessages(pluginsWith({ 'acme/server/messages/ja-JP.json': '{ "acme": ' }))).toThrow(
      /plugin "acme": server\/messages\/ja-JP.json is not valid JSON/,
    );
  });

  it('every plugin of this product has the same keys in every language', () => {
    const root = fileURLToPath(new URL('../../plugins', import.meta.url));
    const flat = (o: unknown, p = ''): string[] => (o && typeof o === 'object' ? Object.entries(o).flatMap(([k, v]) => flat(v, p ? `${p}.${k}` : k)) : [p]);
    let plugins = 0;
    for (const cat of pluginMessages(root)) {
      plugins++;
      const en = flat(cat['en-US']).sort();
      expect(en.length).toBeGreaterThan(0);
      expect(flat(cat['zh-CN']).sort()).toEqual(en);
      expect(flat(cat['ja-JP']).sort()).toEqual(en);
    }
    expect(plugins).toBeGreaterThan(0);
  });
});
