/** Picks the user's provider and loads only its chunk. */
import { lazy, Suspense } from 'react';
import { Spin } from 'antd';
import { PROVIDER_B, type ProviderId } from './map-settings';
import type { MapViewProps } from './map-types';

const DeckMap = lazy(() => import('./providers/deck-map'));
const L7Map = lazy(() => import('./providers/l7-map'));

export function MapView({ provider, ...props }: MapViewProps & { provider: ProviderId }) {
  const View = provider === PROVIDER_B ? L7Map : DeckMap;
  return (
    <Suspense fallback={<Spin style={{ position: 'absolute', top: '45%', left: '50%' }} />}>
      <View {...props} />
    </Suspense>
  );
}
