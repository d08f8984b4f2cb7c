/**
 * One translator, one placeholder syntax: the access, upload and screen-settings texts are
 * tables in the same mechanism as the catalogues (`{{param}}`), reachable from the server's
 * translator; plugins refuse input through invalid() with the one validation catalogue.
 */
import { describe, expect, it } from 'vitest';
import { msg as accessMsg } from '../src/access/messages';
import { msg as fileMsg } from '../src/files/messages';
import { ApiError } from '../src/http/api-error';
import { invalid } from '../src/http/invalid';
import { loadTranslator } from '../src/i18n';
import { overlayMsg } from '../src/overlays/messages';

const { t } = loadTranslator();
const render = (e: ApiError, lang: 'en-US' | 'zh-CN' | 'ja-JP') => t(lang, e.messageKey, e.params);

describe('one translation mechanism', () => {
  it('fills {{param}} placeholders in every area and finds the same texts in the server translator', () => {
    expect(accessMsg('en-US', 'auth.throttled', { seconds: 30 })).toBe('Too many failed logins, please retry in 30 seconds');
    expect(t('zh-CN', 'server.auth.throttled', { seconds: 30 })).toBe('登录失败次数过多，请在 30 秒后重试');
    expect(overlayMsg('ja-JP', 'unknownResource', { resource: 'x' })).toBe('不明なリソース x');
    expect(t('en-US', 'server.overlays.badType', { path: '/a' })).toBe('/a: wrong kind of value');
    expect(fileMsg('en-US', 'size', { size: 5 })).toBe('The file is larger than 5 KB');
    expect(t('ja-JP', 'server.files.size', { size: 5 })).toBe('ファイルサイズが5KBを超えています');
  });

  it('falls back to en-US, then to the bare key; leaves an absent parameter visible', () => {
    expect(accessMsg('zh-CN', 'no.such.key')).toBe('no.such.key');
    expect(accessMsg('en-US', 'auth.required')).toBe('Please input {{name}}');
  });
});

describe('invalid(): the validation helper', () => {
  it('answers 10001 with server.validation texts and the field labelled from metadata', () => {
    const e = invalid('required', 'sn');
    expect(e.code).toBe(10001);
    expect(e.messageKey).toBe('server.validation.required');
    expect(render(e, 'en-US')).toBe(`Please input ${t('en-US', 'fields.sn')}`);
    expect(render(e, 'zh-CN')).toBe(`请输入${t('zh-CN', 'fields.sn')}`);
  });

  it('names a parameter without a field label by its own name, and labels expected types', () => {
    expect(render(invalid('valueBetween', 'limit', { min: 1, max: 5 }), 'en-US')).toBe('limit: value between 1 and 5');
    expect(render(invalid('type', 'sn', { expected: 'integer' }), 'en-US')).toBe(`${t('en-US', 'fields.sn')} must be an integer`);
  });
});
