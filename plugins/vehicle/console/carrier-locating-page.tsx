/**
 * /carrier-locating (standalone, new window): one carrier's location full screen, for a
 * second monitor or a link in a message (?carrierId=…).
 */
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CarrierLocation } from './carrier-location';

export default function CarrierLocatingPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = Number(params.get('carrierId'));
  return (
    <div data-testid="carrier-locating" style={{ position: 'fixed', inset: 0, padding: 12, display: 'flex', flexDirection: 'column', gap: 8, background: '#fff' }}>
      <h2 style={{ margin: 0 }}>{t('menu.carrierLocating')}</h2>
      <div style={{ flex: 1, minHeight: 0 }}>
        <CarrierLocation carrierId={Number.isInteger(id) && id > 0 ? id : undefined} />
      </div>
    </div>
  );
}
