import { PROVIDER_A } from './map-settings';
import { HistoryScreen } from './history-page';

export default function Page() {
  return <HistoryScreen admin={true} provider={PROVIDER_A} />;
}
