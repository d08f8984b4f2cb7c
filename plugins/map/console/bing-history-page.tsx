import { PROVIDER_B } from './map-settings';
import { HistoryScreen } from './history-page';

export default function Page() {
  return <HistoryScreen admin={false} provider={PROVIDER_B} />;
}
