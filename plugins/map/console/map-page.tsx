import { MapScreen } from './map-screen';
import { startMapEarly } from './map-prefetch';

export { MapScreen };

// evaluated when the route's chunk arrives: data and provider download while React renders
startMapEarly(false);

/** /map: every carrier and GPS tracker of the organisation at its last known position. */
export default function MapPage() {
  return <MapScreen admin={false} />;
}
