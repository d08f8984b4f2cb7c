/**
 * On a carrier's or GPS tracker's detail page: "Show on map" (the map filtered to its serial)
 * and "Track history" (its track) — each only for users who may open that page.
 */
import { useTranslation } from 'react-i18next';
import { useNavigate } from '@rti/console/plugin-api';
import { Button } from 'antd';
import { EnvironmentOutlined, HistoryOutlined } from '@ant-design/icons';
import { useCan, type RowActionProps } from '@rti/console/plugin-api';

export default function RecordMapActions({ resource, record }: RowActionProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const canMap = useCan({ open: '/map' });
  const canHistory = useCan({ open: '/map/history' });
  const sn = typeof record.sn === 'string' ? record.sn : '';
  const subject = resource.name === 'device-gps' ? 'gpsId' : 'carrierId';
  return (
    <>
      {canMap && sn && (
        <Button icon={<EnvironmentOutlined />} onClick={() => navigate(`/map?${new URLSearchParams({ sn })}`)} data-testid="record-show-on-map">
          {t('map.showOnMap')}
        </Button>
      )}
      {canHistory && record.id != null && (
        <Button
          icon={<HistoryOutlined />}
          onClick={() => navigate(`/map/history?${new URLSearchParams({ [subject]: String(record.id) })}`)}
          data-testid="record-track-history"
        >
          {t('map.history')}
        </Button>
      )}
    </>
  );
}
