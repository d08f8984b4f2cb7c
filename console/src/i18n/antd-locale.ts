import type { Locale } from 'antd/es/locale';
import enUS from 'antd/es/locale/en_US';
import dayjs from 'dayjs';

/** antd component texts and dayjs follow the console language; zh-CN/ja-JP load on demand. */
const loaders: Record<string, () => Promise<{ antd: Locale; dayjs: string }>> = {
  'zh-CN': async () => {
    const [m] = await Promise.all([import('antd/es/locale/zh_CN'), import('dayjs/locale/zh-cn')]);
    return { antd: m.default, dayjs: 'zh-cn' };
  },
  'ja-JP': async () => {
    const [m] = await Promise.all([import('antd/es/locale/ja_JP'), import('dayjs/locale/ja')]);
    return { antd: m.default, dayjs: 'ja' };
  },
};
const loaded: Record<string, { antd: Locale; dayjs: string }> = { 'en-US': { antd: enUS, dayjs: 'en' } };

export async function loadAntdLocale(lng: string): Promise<void> {
  if (!loaded[lng] && loaders[lng]) loaded[lng] = await loaders[lng]();
}

export function antdLocale(lng: string): Locale {
  const entry = loaded[lng] ?? loaded['en-US'];
  dayjs.locale(entry.dayjs);
  return entry.antd;
}
