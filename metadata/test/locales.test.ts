import { describe, expect, it } from 'vitest';
import { flattenLocale, VALIDATION_KEYS, metadataLabelKeys } from '../src/labels';
import { LOCALES, checkLocales, loadAll, loadLocales, loadMetadata } from '../src/load';
import { edit, faultsOf, scratchCopy } from './helpers';

describe('locales', () => {
  const meta = loadMetadata();
  const flat = Object.fromEntries(Object.entries(loadLocales()).map(([l, tree]) => [l, flattenLocale(tree)]));

  it('all three locales hold the same keys', () => {
    const en = Object.keys(flat['en-US']).sort();
    for (const l of LOCALES) expect(Object.keys(flat[l]).sort(), l).toEqual(en);
  });

  it('every label key the metadata refers to exists in every locale', () => {
    const keys = [...metadataLabelKeys(meta)];
    expect(keys.length).toBeGreaterThan(500);
    for (const l of LOCALES)
      expect(
        keys.filter((k) => !(k in flat[l])),
        l,
      ).toEqual([]);
  });

  it('holds every SPEC §5 validation template with i18next interpolation', () => {
    for (const l of LOCALES) for (const k of VALIDATION_KEYS) expect(flat[l][`validation.${k}`], `${l} ${k}`).toBeTruthy();
    expect(flat['en-US']['validation.unique']).toBe('{{name}} "{{value}}" already exists');
    expect(flat['zh-CN']['validation.lengthBetween']).toContain('{{min}}');
    expect(flat['ja-JP']['validation.earlier']).toContain('{{later}}');
  });

  it('zh-CN and ja-JP are translations, not English copies', () => {
    for (const l of ['zh-CN', 'ja-JP']) {
      const labels = Object.keys(flat['en-US']).filter((k) => /^(resources|fields|menu|enums|validation|rules)\./.test(k));
      const same = labels.filter((k) => flat[l][k] === flat['en-US'][k] && /[a-z]{3}/.test(flat['en-US'][k]));
      // proper nouns and acronyms (MySQL, ETC, language names) may stay as they are
      expect(same.length / labels.length, `${l}: ${same.slice(0, 10).join(', ')}`).toBeLessThan(0.02);
    }
  });

  it('checkLocales reports a label missing in one language with file and pointer', () => {
    const dir = scratchCopy();
    edit(dir, 'locales/ja-JP.json', (t) => delete t.fields.mac);
    edit(dir, 'locales/zh-CN.json', (t) => (t.menu.extraKey = '多余'));
    const faults = faultsOf(() => loadAll(dir));
    expect(faults).toContainEqual({ file: 'locales/ja-JP.json', pointer: '/fields/mac', problem: 'missing label "fields.mac" used by the metadata' });
    expect(faults).toContainEqual({
      file: 'locales/en-US.json',
      pointer: '/menu/extraKey',
      problem: 'missing "menu.extraKey" (present in locales/zh-CN.json)',
    });
    expect(checkLocales(meta, loadLocales())).toEqual([]);
  });
});
