/**
 * Upload and import refusals in the three languages. They are translated here and handed to
 * ApiError as ready text, so this area needs no change to the server's message catalogue.
 */
import type { Language } from '../http/types';

type Catalogue = Record<string, string>;

const MESSAGES: Record<Language, Catalogue> = {
  'en-US': {
    noFile: 'Please choose a file to upload',
    format: 'Only {{formats}} files are accepted',
    size: 'The file is larger than {{size}} KB',
    signature: 'The file content does not match a .{{ext}} file',
    multipart: 'The upload must be sent as multipart/form-data',
    notFound: 'File not found',
    xlsUnsupported: 'Excel 97-2003 (.xls) files cannot be read; please save the file as .xlsx and import it again',
    importNotFound: 'Import not found',
    importNotAllowed: 'This list has no import',
    interrupted: 'The import was interrupted by a server restart; rows after the last saved one were not imported',
    unreadable: 'The file could not be read as an Excel workbook',
    noHeader: 'The file has no header row with the template columns',
    rowFailed: 'Row could not be saved: {{message}}',
  },
  'zh-CN': {
    noFile: '请选择要上传的文件',
    format: '仅支持{{formats}}格式的文件',
    size: '文件大小超过{{size}}KB',
    signature: '文件内容与.{{ext}}格式不符',
    multipart: '上传须使用multipart/form-data格式',
    notFound: '文件不存在',
    xlsUnsupported: '无法读取Excel 97-2003（.xls）文件，请另存为.xlsx后重新导入',
    importNotFound: '导入记录不存在',
    importNotAllowed: '该列表不支持导入',
    interrupted: '导入因服务器重启而中断，最后保存行之后的数据未导入',
    unreadable: '无法将文件读取为Excel工作簿',
    noHeader: '文件缺少与模板列对应的表头行',
    rowFailed: '该行无法保存：{{message}}',
  },
  'ja-JP': {
    noFile: 'アップロードするファイルを選択してください',
    format: '{{formats}}形式のファイルのみ受け付けます',
    size: 'ファイルサイズが{{size}}KBを超えています',
    signature: 'ファイルの内容が.{{ext}}形式と一致しません',
    multipart: 'アップロードはmultipart/form-data形式で送信してください',
    notFound: 'ファイルが見つかりません',
    xlsUnsupported: 'Excel 97-2003（.xls）ファイルは読み込めません。.xlsxで保存して再度インポートしてください',
    importNotFound: 'インポートが見つかりません',
    importNotAllowed: 'この一覧はインポートできません',
    interrupted: 'サーバーの再起動によりインポートが中断されました。最後に保存された行以降は取り込まれていません',
    unreadable: 'ファイルをExcelブックとして読み込めません',
    noHeader: 'テンプレートの列を含むヘッダー行がありません',
    rowFailed: '行を保存できません：{{message}}',
  },
};

export type MessageKey = keyof (typeof MESSAGES)['en-US'];

export function msg(lang: Language, key: MessageKey, params: Record<string, unknown> = {}): string {
  const text = MESSAGES[lang]?.[key] ?? MESSAGES['en-US'][key];
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
