/**
 * Upload and import refusals in the three languages, in the one mechanism (i18n textTable);
 * also in the server's translator under `server.files.`.
 */
import type { Language } from '../http/types';
import { textTable } from '../i18n/translator';

type Catalogue = Record<string, string>;

const MESSAGES: Record<Language, Catalogue> = {
  'en-US': {
    malformed: 'The upload is incomplete or malformed; please send the file again',
    aborted: 'The upload was interrupted before the whole file arrived',
    timeout: 'Nothing arrived for {{seconds}} s; the upload was cancelled',
    tooSlow: 'The upload did not complete within {{seconds}} s and was cancelled',
    badName: 'The file name must not be empty, longer than {{bytes}} bytes or contain control characters',
    imageDimensions: 'Images may have at most {{side}} pixels on a side and {{megapixels}} megapixels in all; this one declares {{width}} × {{height}}',
    imageBusy: 'Too many images are being processed right now; please try again in a moment',
    zipLimits: 'The .{{ext}} file expands to more than {{size}} MB or holds more than {{entries}} parts, and is not accepted',
    zipUnreadable: 'The .{{ext}} file is not a readable archive',
    xlsxStrings: 'The workbook holds more text than an import reads (at most {{size}} MB of shared text, {{count}} distinct texts); please split it',
    xlsxDimension: 'An import reads at most {{rows}} rows and {{columns}} columns; the sheet declares {{range}}; please split it',
    xlsxRows: 'The sheet has more than {{rows}} rows or {{columns}} columns; please split it',
    noFile: 'Please choose a file to upload',
    format: 'Only {{formats}} files are accepted',
    size: 'The file is larger than {{size}} KB',
    signature: 'The file content does not match a .{{ext}} file',
    multipart: 'The upload must be sent as multipart/form-data',
    notFound: 'File not found',
    storageDown: 'File storage is unavailable right now; nothing was saved, please try again in a moment',
    xlsUnsupported: 'Excel 97-2003 (.xls) files cannot be read; please save the file as .xlsx and import it again',
    importNotFound: 'Import not found',
    importNotAllowed: 'This list has no import',
    interrupted: 'The import was interrupted by a server restart; rows after the last saved one were not imported',
    unreadable: 'The file could not be read as an Excel workbook',
    noHeader: 'The file has no header row with the template columns',
    rowFailed: 'Row could not be saved: {{message}}',
  },
  'zh-CN': {
    malformed: '上传内容不完整或格式错误，请重新发送文件',
    aborted: '文件尚未完整到达，上传已中断',
    timeout: '{{seconds}}秒内未收到数据，上传已取消',
    tooSlow: '上传未能在{{seconds}}秒内完成，已取消',
    badName: '文件名不能为空、不能超过{{bytes}}字节，也不能包含控制字符',
    imageDimensions: '图片每边最多{{side}}像素、总计最多{{megapixels}}百万像素；该图片声明为{{width}} × {{height}}',
    imageBusy: '当前正在处理的图片过多，请稍后重试',
    zipLimits: '该.{{ext}}文件解压后超过{{size}}MB或包含超过{{entries}}个部件，不予接收',
    zipUnreadable: '该.{{ext}}文件不是可读取的压缩包',
    xlsxStrings: '工作簿中的文本超出导入可读取的范围（共享文本最多{{size}}MB、{{count}}条不同文本），请拆分后导入',
    xlsxDimension: '导入最多读取{{rows}}行、{{columns}}列；该工作表声明的范围为{{range}}，请拆分后导入',
    xlsxRows: '工作表超过{{rows}}行或{{columns}}列，请拆分后导入',
    noFile: '请选择要上传的文件',
    format: '仅支持{{formats}}格式的文件',
    size: '文件大小超过{{size}}KB',
    signature: '文件内容与.{{ext}}格式不符',
    multipart: '上传须使用multipart/form-data格式',
    notFound: '文件不存在',
    storageDown: '文件存储暂时不可用，未保存任何内容，请稍后重试',
    xlsUnsupported: '无法读取Excel 97-2003（.xls）文件，请另存为.xlsx后重新导入',
    importNotFound: '导入记录不存在',
    importNotAllowed: '该列表不支持导入',
    interrupted: '导入因服务器重启而中断，最后保存行之后的数据未导入',
    unreadable: '无法将文件读取为Excel工作簿',
    noHeader: '文件缺少与模板列对应的表头行',
    rowFailed: '该行无法保存：{{message}}',
  },
  'ja-JP': {
    malformed: 'アップロードの内容が不完全または不正です。ファイルをもう一度送信してください',
    aborted: 'ファイル全体が届く前にアップロードが中断されました',
    timeout: '{{seconds}}秒間データが届かなかったため、アップロードを取り消しました',
    tooSlow: 'アップロードが{{seconds}}秒以内に完了しなかったため、取り消しました',
    badName: 'ファイル名は空にできず、{{bytes}}バイト以内で、制御文字を含めることはできません',
    imageDimensions: '画像は一辺{{side}}ピクセル、合計{{megapixels}}メガピクセルまでです。この画像は{{width}} × {{height}}と宣言されています',
    imageBusy: '現在処理中の画像が多すぎます。しばらくしてからもう一度お試しください',
    zipLimits: 'この.{{ext}}ファイルは展開すると{{size}}MBを超えるか、{{entries}}個を超える部品を含むため受け付けられません',
    zipUnreadable: 'この.{{ext}}ファイルは読み取れるアーカイブではありません',
    xlsxStrings: 'ブックのテキストがインポートで読み取れる量を超えています（共有テキストは最大{{size}}MB、{{count}}種類まで）。分割してください',
    xlsxDimension: 'インポートで読み取れるのは最大{{rows}}行、{{columns}}列です。このシートの範囲は{{range}}と宣言されています。分割してください',
    xlsxRows: 'シートが{{rows}}行または{{columns}}列を超えています。分割してください',
    noFile: 'アップロードするファイルを選択してください',
    format: '{{formats}}形式のファイルのみ受け付けます',
    size: 'ファイルサイズが{{size}}KBを超えています',
    signature: 'ファイルの内容が.{{ext}}形式と一致しません',
    multipart: 'アップロードはmultipart/form-data形式で送信してください',
    notFound: 'ファイルが見つかりません',
    storageDown: 'ファイルストレージが現在利用できません。何も保存されていません。しばらくしてから再試行してください',
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

export const FILE_TEXTS = textTable('server.files', MESSAGES);

export function msg(lang: Language, key: MessageKey, params: Record<string, unknown> = {}): string {
  return FILE_TEXTS.t(lang, key, params);
}
