import type { ComponentType } from 'react';
import type { ResourceDef } from '@rti/metadata/browser';
import type { ScreenKind } from '../plugin-contract';

type ScreenProps = { resource: ResourceDef };
type ScreenExport = 'MetaList' | 'MetaCreate' | 'MetaEdit' | 'MetaShow';
type ScreensModule = Partial<Record<ScreenExport, ComponentType<ScreenProps>>> & {
  startEarlyList?: (res: ResourceDef, search: string) => void;
};

// The generated screens live in src/meta (screens engineer); loaded with the first resource page.
const modules = import.meta.glob<ScreensModule>('../meta/index.{ts,tsx}');
const EXPORTS: Record<ScreenKind, ScreenExport> = { list: 'MetaList', create: 'MetaCreate', edit: 'MetaEdit', show: 'MetaShow' };

/** the screens module once it has loaded: later resource pages render without suspending */
let loaded: ScreensModule | undefined;

/** A generated screen already loaded (no Suspense round, no fallback to reveal), else undefined. */
export function loadedMetaScreen(screen: ScreenKind): ComponentType<ScreenProps> | undefined {
  return loaded?.[EXPORTS[screen]];
}

/** The screens module (the same load every generated page awaits). */
export function loadMetaScreens(): Promise<ScreensModule> {
  const load = Object.values(modules)[0];
  if (!load) return Promise.reject(new Error('console/src/meta/index.ts is missing'));
  return load().then((m) => (loaded = m));
}

export function metaScreen(screen: ScreenKind): () => Promise<{ default: ComponentType<ScreenProps> }> {
  return async () => {
    const mod = await loadMetaScreens();
    const comp = mod[EXPORTS[screen]];
    if (!comp) throw new Error(`console/src/meta does not export ${EXPORTS[screen]}`);
    return { default: comp };
  };
}
