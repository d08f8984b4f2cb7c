import { createContext, useContext, type ReactNode } from 'react';
import type { Metadata } from '@rti/metadata/browser';

const MetadataContext = createContext<Metadata | undefined>(undefined);

/** Metadata from POST /api/metadata (with overlays), available once the user is signed in. */
export function MetadataProvider({ value, children }: { value: Metadata; children: ReactNode }) {
  return <MetadataContext.Provider value={value}>{children}</MetadataContext.Provider>;
}

/** `{ resources, enums, menu }` for screens inside the main layout. */
export function useMetadata(): Metadata {
  const meta = useContext(MetadataContext);
  if (!meta) throw new Error('useMetadata() is only available inside the signed-in console');
  return meta;
}
