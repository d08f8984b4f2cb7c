import type { ComponentType } from 'react';
import type { ResourceDef } from '@rti/metadata/browser';
import type { ScreenKind } from '../plugin-api';

type ScreenProps = { resource: ResourceDef };
type ScreensModule = Partial<Record<'MetaList' | 'MetaCreate' | 'MetaEdit' | 'MetaShow', ComponentType<ScreenProps>>>;

// The generated screens live in src/meta (screens engineer); loaded with the first resource page.
const modules = import.meta.glob<ScreensModule>('../meta/index.{ts,tsx}');
const EXPORTS: Record<ScreenKind, keyof ScreensModule> = { list: 'MetaList', create: 'MetaCreate', edit: 'MetaEdit', show: 'MetaShow' };

export function metaScreen(screen: ScreenKind): () => Promise<{ default: ComponentType<ScreenProps> }> {
  return async () => {
    const load = Object.values(modules)[0];
    if (!load) throw new Error('console/src/meta/index.ts is missing');
    const mod = await load();
    const comp = mod[EXPORTS[screen]];
    if (!comp) throw new Error(`console/src/meta does not export ${EXPORTS[screen]}`);
    return { default: comp };
  };
}
