import { MapScreen } from './map-page';

/** /map-admin: the same map across every organisation of a platform user. */
export default function MapAdminPage() {
  return <MapScreen admin />;
}
