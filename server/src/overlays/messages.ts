/**
 * Messages of the overlay calls in the three interface languages, in the one mechanism
 * (i18n textTable); also in the server's translator under `server.overlays.`.
 */
import type { OverlayProblem } from '@rti/metadata';
import type { Language } from '../http/types';
import { textTable } from '../i18n/translator';

type Table = Record<string, string>;

const en: Table = {
  platformOnly: 'Only platform administrators may change screens: a screen setting applies to every organisation',
  unknownResource: 'Unknown resource {{resource}}',
  invalid: 'Screen settings refused: {{problems}}',
  unknownField: '{{path}}: no such editable field',
  notAllowed: '{{path}}: this setting cannot be changed here (a required field stays required)',
  textTooLong: '{{path}}: text must be 1 to 100 characters',
  badDefault: '{{path}}: the default value does not fit the field',
  badWidth: '{{path}}: column width must be a whole number from 40 to 800',
  badType: '{{path}}: wrong kind of value',
  duplicateColumn: '{{path}}: column listed twice',
};
const zh: Table = {
  platformOnly: '只有平台管理员可以修改界面：界面设置对所有组织生效',
  unknownResource: '未知资源 {{resource}}',
  invalid: '界面设置被拒绝：{{problems}}',
  unknownField: '{{path}}：没有可编辑的此字段',
  notAllowed: '{{path}}：此处不能修改该设置（必填字段保持必填）',
  textTooLong: '{{path}}：文本长度须为 1 到 100 个字符',
  badDefault: '{{path}}：默认值不符合字段规则',
  badWidth: '{{path}}：列宽须为 40 到 800 的整数',
  badType: '{{path}}：值的类型错误',
  duplicateColumn: '{{path}}：列重复',
};
const ja: Table = {
  platformOnly: '画面設定はすべての組織に適用されるため、プラットフォーム管理者のみ変更できます',
  unknownResource: '不明なリソース {{resource}}',
  invalid: '画面設定を保存できません：{{problems}}',
  unknownField: '{{path}}：編集できる項目ではありません',
  notAllowed: '{{path}}：ここでは変更できない設定です（必須項目は必須のままです）',
  textTooLong: '{{path}}：テキストは 1〜100 文字にしてください',
  badDefault: '{{path}}：既定値が項目の規則に合いません',
  badWidth: '{{path}}：列幅は 40〜800 の整数にしてください',
  badType: '{{path}}：値の種類が正しくありません',
  duplicateColumn: '{{path}}：列が重複しています',
};

export const OVERLAY_TEXTS = textTable('server.overlays', { 'en-US': en, 'zh-CN': zh, 'ja-JP': ja });

export function overlayMsg(lang: Language, key: string, params: Record<string, unknown> = {}): string {
  return OVERLAY_TEXTS.t(lang, key, params);
}

export const problemsText = (lang: Language, problems: OverlayProblem[]): string =>
  problems.map((p) => overlayMsg(lang, p.problem, { path: p.path || '/' })).join('; ');
