import { MapScreen } from './map-screen';
import { startMapEarly } from './map-prefetch';

startMapEarly(true);

/** /map-admin: the same map across every organisation of a platform user. */
export default function MapAdminPage() {
  return <MapScreen admin />;
}
