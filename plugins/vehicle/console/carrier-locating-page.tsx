/**
 * /carrier-locating (standalone, new window): one carrier's location full screen, for a
 * second monitor or a link in a message (?carrierId=…). Opened from the menu without an id,
 * it asks for a carrier (same search as the locating centre; the first match is shown).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Alert, Input } from 'antd';
import { request } from '@rti/console/plugin-api';
import type { LocatedCarrier } from '../shared/vehicle-answer';
import { CarrierLocation } from './carrier-location';

export default function CarrierLocatingPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [notFound, setNotFound] = useState(false);
  const id = Number(params.get('carrierId'));
  const search = async (keyword: string) => {
    if (!keyword.trim()) return;
    const a = await request<{ list: LocatedCarrier[] }>('/jimi/carrier/gps', { keyword: keyword.trim() });
    setNotFound(!a.list.length);
    if (a.list.length) setParams({ carrierId: String(a.list[0].id) });
  };
  return (
    <div
      data-testid="carrier-locating"
      style={{ position: 'fixed', inset: 0, padding: 12, display: 'flex', flexDirection: 'column', gap: 8, background: '#fff' }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 16 }}>
        <h2 style={{ margin: 0 }}>{t('menu.carrierLocating')}</h2>
        <Input.Search
          allowClear
          enterButton
          placeholder={t('vehicle.locateHint')}
          style={{ width: 420 }}
          onSearch={(v) => void search(v).catch(() => setNotFound(true))}
        />
      </div>
      {notFound && <Alert type="warning" showIcon message={t('vehicle.noMatch')} />}
      <div style={{ flex: 1, minHeight: 0 }}>
        <CarrierLocation carrierId={Number.isInteger(id) && id > 0 ? id : undefined} />
      </div>
    </div>
  );
}
