import { DEFAULT_MENU_COLOR, DEFAULT_PRIMARY_COLOR } from '../constants';

/** Theme of an organisation as /organization/basic answers it (SPEC §3 Organization.theme). */
export interface OrgTheme {
  primaryColor?: string;
  menuColor?: string;
  largeLogo?: string;
  smallLogo?: string;
  loginBackground?: string;
}

export interface OrgBasic {
  id: number | string;
  name: string;
  shortName?: string;
  entryCode?: string | null;
  theme?: OrgTheme | null;
}

const HEX = /^#[0-9a-fA-F]{6}$/;

export function themeColors(theme: OrgTheme | null | undefined): { primary: string; menu: string } {
  return {
    primary: theme?.primaryColor && HEX.test(theme.primaryColor) ? theme.primaryColor : DEFAULT_PRIMARY_COLOR,
    menu: theme?.menuColor && HEX.test(theme.menuColor) ? theme.menuColor : DEFAULT_MENU_COLOR,
  };
}

/**
 * The logo the sider shows: the small one collapsed, the large one expanded — and the other one
 * when only one was uploaded, so an organisation with a single logo never shows bare text.
 */
export function siderLogo(theme: OrgTheme | null | undefined, collapsed: boolean): string | undefined {
  return (collapsed ? theme?.smallLogo || theme?.largeLogo : theme?.largeLogo || theme?.smallLogo) || undefined;
}
