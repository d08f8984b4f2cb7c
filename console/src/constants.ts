/** SPEC §9 constants the shell uses. */
export const APP_TITLE = 'RTI Console';
export const TITLE_SUFFIX = ' - RTI Console';
export const API_BASE = '/api';
export const REQUEST_TIMEOUT_MS = 60_000;
export const LAZY_PAGE_TIMEOUT_MS = 120_000;
export const MESSAGE_DURATION_S = 3;
export const COOKIE_PREFIX = 'admin-';
export const COOKIE_DAYS = 1;
export const SIDER_WIDTH = 200;
export const SIDER_COLLAPSED_WIDTH = 40;
export const TABLET_MAX_WIDTH = 992;
export const MOBILE_MAX_WIDTH = 600;
export const BREADCRUMB_MAX_WIDTH = 560;
/** scroll distance after which the header hides, when the user enabled it */
export const HEADER_HIDE_AFTER_PX = 300;
export const LOG_BADGE_OVERFLOW = 99;
/**
 * The system's request log (System → Admin log): whoever may open it is an administrator
 * (docs/ACCESS.md "Administrators"); the header's error-log badge is for them only.
 */
export const ADMIN_LOG_PATH = '/system/admin-log';
export const HOME_PATH = '/dashboard-home';
export const LOCALES = ['en-US', 'zh-CN', 'ja-JP'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en-US';
/** SPEC §9 default theme: an orange primary and a dark blue menu. */
export const DEFAULT_PRIMARY_COLOR = '#f5822a';
export const DEFAULT_MENU_COLOR = '#001529';
export const INVALID_SESSION_CODE = 10006;
/** the server's validation refusal (docs/API.md): the message names the field and the rule */
export const VALIDATION_CODE = 10001;
