/** Language names are written in their own language, so they are not translated. */
export const LANGUAGE_NAMES: Record<string, string> = { 'en-US': 'English', 'zh-CN': '中文', 'ja-JP': '日本語' };
