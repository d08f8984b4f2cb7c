/** Picks the user's provider and loads only its chunk. */
import { lazy, Suspense } from 'react';
import { Spin } from 'antd';
import { PROVIDER_B, type ProviderId } from './map-settings';
import type { MapViewProps } from './map-types';

const loadDeck = () => import('./providers/deck-map');
const loadL7 = () => import('./providers/l7-map');
const DeckMap = lazy(loadDeck);
const L7Map = lazy(loadL7);

/** Starts downloading a provider's chunk (the screen calls it while its data is on the way). */
export function preloadProvider(provider: ProviderId): void {
  void (provider === PROVIDER_B ? loadL7() : loadDeck());
}

export function MapView({ provider, ...props }: MapViewProps & { provider: ProviderId }) {
  const View = provider === PROVIDER_B ? L7Map : DeckMap;
  return (
    <Suspense fallback={<Spin style={{ position: 'absolute', top: '45%', left: '50%' }} />}>
      <View {...props} />
    </Suspense>
  );
}
