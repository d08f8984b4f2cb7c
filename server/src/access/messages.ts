/**
 * Messages of the access layer in the three interface languages, kept beside the code and
 * translated by the one mechanism (i18n textTable: `{{param}}`, fallback en-US then the key);
 * the server's translator holds them too, under `server.` (server.auth.locked, …).
 */
import type { Language } from '../http/types';
import { textTable } from '../i18n/translator';

type Table = Record<string, string>;

const en: Table = {
  'access.invalidSession': 'Invalid session, please log in again',
  'access.orgNotAllowed': 'You do not belong to this organisation',
  'access.noPermission': 'You have no permission for this operation ({{code}})',
  'access.noOrganization': 'No current organisation',
  'auth.required': 'Please input {{name}}',
  'auth.locked': 'This account is locked, please contact your administrator',
  'auth.badCredentials': 'Wrong user name or password',
  'auth.throttled': 'Too many failed logins, please retry in {{seconds}} seconds',
  'auth.unknownEntryCode': 'Unknown organisation entry code {{entryCode}}',
  'auth.noOrganization': 'This account belongs to no organisation',
  'auth.passwordRule': 'The password must be 8 to 50 characters long and contain letters, digits and special characters (!@#$%^&*()_+)',
  'auth.passwordInconsistent': 'The passwords are inconsistent, please input the new password again',
  'auth.oldPasswordWrong': 'The old password is wrong',
  'auth.passwordUnchanged': 'The new password must differ from the old one',
  'field.username': 'user name',
  'field.password': 'password',
  'field.oldPassword': 'old password',
  'field.newPassword': 'new password',
  'field.confirmPassword': 'confirm password',
  'field.entryCode': 'entry code',
  'permission.otherCalls': 'Other calls',
  'permission.view.create': '{{name}}: create',
  'permission.view.edit': '{{name}}: edit',
  'permission.view.detail': '{{name}}: detail',
  'permission.api.list': 'Query list',
  'permission.api.base': 'Get one',
  'permission.api.create': 'Create',
  'permission.api.update': 'Update',
  'permission.api.delete': 'Delete',
  'permission.api.all': 'All (no paging)',
  'permission.api.export': 'Export',
  'permission.api.import': 'Import',
  'permission.api.importStatus': 'Import status',
  'permission.api.statusUpdate': 'Update status',
  'token.none': 'This organisation has no API token',
};

const zh: Table = {
  'access.invalidSession': '会话无效，请重新登录',
  'access.orgNotAllowed': '您不属于该组织',
  'access.noPermission': '您没有此操作的权限（{{code}}）',
  'access.noOrganization': '没有当前组织',
  'auth.required': '请输入{{name}}',
  'auth.locked': '该账号已被锁定，请联系管理员',
  'auth.badCredentials': '用户名或密码错误',
  'auth.throttled': '登录失败次数过多，请在 {{seconds}} 秒后重试',
  'auth.unknownEntryCode': '未知的组织登录码 {{entryCode}}',
  'auth.noOrganization': '该账号不属于任何组织',
  'auth.passwordRule': '密码须为 8 到 50 个字符，并包含字母、数字和特殊字符（!@#$%^&*()_+）',
  'auth.passwordInconsistent': '两次输入的密码不一致，请重新输入新密码',
  'auth.oldPasswordWrong': '旧密码错误',
  'auth.passwordUnchanged': '新密码不能与旧密码相同',
  'field.username': '用户名',
  'field.password': '密码',
  'field.oldPassword': '旧密码',
  'field.newPassword': '新密码',
  'field.confirmPassword': '确认密码',
  'field.entryCode': '登录码',
  'permission.otherCalls': '其他接口',
  'permission.view.create': '{{name}}：新增',
  'permission.view.edit': '{{name}}：编辑',
  'permission.view.detail': '{{name}}：详情',
  'permission.api.list': '查询列表',
  'permission.api.base': '查询单条',
  'permission.api.create': '新增',
  'permission.api.update': '修改',
  'permission.api.delete': '删除',
  'permission.api.all': '查询全部',
  'permission.api.export': '导出',
  'permission.api.import': '导入',
  'permission.api.importStatus': '导入状态',
  'permission.api.statusUpdate': '修改状态',
  'token.none': '该组织没有 API 令牌',
};

const ja: Table = {
  'access.invalidSession': 'セッションが無効です。再度ログインしてください',
  'access.orgNotAllowed': 'この組織に所属していません',
  'access.noPermission': 'この操作の権限がありません（{{code}}）',
  'access.noOrganization': '現在の組織がありません',
  'auth.required': '{{name}}を入力してください',
  'auth.locked': 'このアカウントはロックされています。管理者に連絡してください',
  'auth.badCredentials': 'ユーザー名またはパスワードが間違っています',
  'auth.throttled': 'ログイン失敗が多すぎます。{{seconds}} 秒後に再試行してください',
  'auth.unknownEntryCode': '不明な組織ログインコード {{entryCode}}',
  'auth.noOrganization': 'このアカウントはどの組織にも所属していません',
  'auth.passwordRule': 'パスワードは 8〜50 文字で、英字・数字・記号（!@#$%^&*()_+）を含める必要があります',
  'auth.passwordInconsistent': 'パスワードが一致しません。新しいパスワードを再入力してください',
  'auth.oldPasswordWrong': '現在のパスワードが間違っています',
  'auth.passwordUnchanged': '新しいパスワードは現在のパスワードと異なる必要があります',
  'field.username': 'ユーザー名',
  'field.password': 'パスワード',
  'field.oldPassword': '現在のパスワード',
  'field.newPassword': '新しいパスワード',
  'field.confirmPassword': 'パスワード（確認）',
  'field.entryCode': 'ログインコード',
  'permission.otherCalls': 'その他の API',
  'permission.view.create': '{{name}}：新規',
  'permission.view.edit': '{{name}}：編集',
  'permission.view.detail': '{{name}}：詳細',
  'permission.api.list': '一覧取得',
  'permission.api.base': '1 件取得',
  'permission.api.create': '新規',
  'permission.api.update': '更新',
  'permission.api.delete': '削除',
  'permission.api.all': '全件取得',
  'permission.api.export': 'エクスポート',
  'permission.api.import': 'インポート',
  'permission.api.importStatus': 'インポート状況',
  'permission.api.statusUpdate': 'ステータス更新',
  'token.none': 'この組織には API トークンがありません',
};

export const ACCESS_TEXTS = textTable('server', { 'en-US': en, 'zh-CN': zh, 'ja-JP': ja });

export function msg(lang: Language, key: string, params: Record<string, unknown> = {}): string {
  return ACCESS_TEXTS.t(lang, key, params);
}

export function hasMsg(key: string): boolean {
  return ACCESS_TEXTS.has(key);
}
