import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { i18n, initI18n, isLocale, storedLocale, storeLocale } from '../src/i18n';
import { mergeDicts } from '../src/i18n/merge';
import { setCookie, removeCookie } from '../src/lib/cookies';
import { LOCALES } from '../src/constants';
import en from '../src/locales/en-US.json';
import zh from '../src/locales/zh-CN.json';
import ja from '../src/locales/ja-JP.json';

const flat = (d: Record<string, unknown>, p = ''): string[] =>
  Object.entries(d).flatMap(([k, v]) => (v && typeof v === 'object' ? flat(v as Record<string, unknown>, `${p}${k}.`) : [`${p}${k}`]));

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  localStorage.clear();
  removeCookie('user-id');
});

describe('console translations', () => {
  it('zh-CN and ja-JP have exactly the en-US keys, none left empty or untranslated', () => {
    const keys = flat(en).sort();
    expect(flat(zh).sort()).toEqual(keys);
    expect(flat(ja).sort()).toEqual(keys);
    const get = (d: unknown, k: string) => k.split('.').reduce((o, p) => (o as Record<string, unknown>)[p], d) as string;
    const same = keys.filter(
      (k) => get(zh, k) === get(en, k) && !/^documentTitle|^log\.kinds\.api$/.test(k) && /[a-z]{3}/.test(get(en, k).replace(/\{\{\w+\}\}/g, '')),
    );
    expect(same).toEqual([]);
  });

  it('merges metadata, console and plugin strings deeply, later sources winning', () => {
    expect(mergeDicts({ a: { b: 1, c: 2 }, x: 1 }, { a: { c: 3 } }, undefined, { y: [1] })).toEqual({ a: { b: 1, c: 3 }, x: 1, y: [1] });
  });

  it('starts in en-US with metadata labels merged in', () => {
    expect(i18n.language).toBe('en-US');
    expect(i18n.t('tabs.closeAll')).toBe('Close all tabs');
    expect(i18n.t('resources.device-beacon')).not.toBe('resources.device-beacon');
  });
});

describe('language choice', () => {
  it('defaults to en-US without looking at the browser language', () => {
    expect(storedLocale()).toBe('en-US');
  });

  it('is stored per user, with the last choice used on the login page', () => {
    setCookie('user-id', '5');
    storeLocale('ja-JP');
    setCookie('user-id', '6');
    storeLocale('zh-CN');
    expect(storedLocale()).toBe('zh-CN');
    setCookie('user-id', '5');
    expect(storedLocale()).toBe('ja-JP');
    removeCookie('user-id');
    expect(storedLocale()).toBe('zh-CN');
  });

  it('accepts only the three console languages', () => {
    expect(LOCALES.every(isLocale)).toBe(true);
    expect(isLocale('fr-FR')).toBe(false);
  });
});
