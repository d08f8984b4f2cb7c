/**
 * Header switch between the two map providers (SPEC §1): the choice is stored per user;
 * switching goes to the Map screen unless a map screen is already open.
 */
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useNavigate } from '@rti/console/plugin-api';
import { Segmented, Tooltip } from 'antd';
import { useShell } from '@rti/console/plugin-api';
import { PROVIDER_A, PROVIDER_B, setProvider, type ProviderId } from './map-settings';
import { useProvider } from './use-provider';

export default function MapTypeWidget() {
  const { t } = useTranslation();
  const { user } = useShell();
  const provider = useProvider();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const change = (v: ProviderId) => {
    setProvider(user.userId, v);
    if (!pathname.startsWith('/map')) navigate('/map');
  };
  return (
    <Tooltip title={t('map.provider')}>
      <Segmented
        size="small"
        data-testid="map-type"
        value={provider}
        onChange={(v) => change(v as ProviderId)}
        options={[
          { value: PROVIDER_A, label: <span data-testid="map-type:a">{t('map.providerA')}</span> },
          { value: PROVIDER_B, label: <span data-testid="map-type:b">{t('map.providerB')}</span> },
        ]}
      />
    </Tooltip>
  );
}
