import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { effectiveMenu, type Metadata } from '@rti/metadata/browser';
import type { ConsolePlugin } from '../plugin-contract';
import type { UserInfo } from '../lib/session';
import { buildRoutes, type PageRoute } from '../lib/routes';
import { buildSideMenu, mergedMenu, type NavNode } from '../lib/menu';
import type { OrgTheme } from './org-theme';

/** What the signed-in shell derives from metadata, plugins and the user's access. */
export interface Shell {
  meta: Metadata;
  plugins: ConsolePlugin[];
  routes: PageRoute[];
  sideMenu: NavNode[];
  access: Set<string>;
  user: UserInfo;
  theme?: OrgTheme | null;
}

const ShellContext = createContext<Shell | undefined>(undefined);

/** The metadata the shell routes by: resources not listed in menu.json join their module's group (effectiveMenu), plus the plugins' menu entries. */
export function shellMeta(metadata: Metadata, plugins: ConsolePlugin[]): Metadata {
  return { ...metadata, menu: mergedMenu(effectiveMenu(metadata), plugins) };
}

export function useShellValue(input: {
  metadata: Metadata;
  plugins: ConsolePlugin[];
  access: Set<string>;
  permissions: string[];
  user: UserInfo;
  theme?: OrgTheme | null;
}): Shell {
  const { metadata, plugins, access, permissions, user, theme } = input;
  return useMemo(() => {
    const meta = shellMeta(metadata, plugins);
    const routes = buildRoutes(meta, plugins);
    const sideMenu = buildSideMenu({ meta, routes, access, permissions });
    return { meta, plugins, routes, sideMenu, access, user, theme };
  }, [metadata, plugins, access, permissions, user, theme]);
}

export function ShellProvider({ value, children }: { value: Shell; children: ReactNode }) {
  return <ShellContext.Provider value={value}>{children}</ShellContext.Provider>;
}

/** The shell when inside the signed-in console, else undefined (screens rendered on their own in tests). */
export function useOptionalShell(): Shell | undefined {
  return useContext(ShellContext);
}

export function useShell(): Shell {
  const s = useContext(ShellContext);
  if (!s) throw new Error('useShell() outside the signed-in console');
  return s;
}
