import type { Locale } from 'antd/es/locale';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import jaJP from 'antd/es/locale/ja_JP';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/ja';

const table: Record<string, { antd: Locale; dayjs: string }> = {
  'en-US': { antd: enUS, dayjs: 'en' },
  'zh-CN': { antd: zhCN, dayjs: 'zh-cn' },
  'ja-JP': { antd: jaJP, dayjs: 'ja' },
};

/** antd component texts and dayjs follow the console language. */
export function antdLocale(lng: string): Locale {
  const entry = table[lng] ?? table['en-US'];
  dayjs.locale(entry.dayjs);
  return entry.antd;
}
