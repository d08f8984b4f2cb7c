import { PROVIDER_B } from './map-settings';
import { HistoryScreen } from './history-page';

export default function Page() {
  return <HistoryScreen admin={true} provider={PROVIDER_B} />;
}
