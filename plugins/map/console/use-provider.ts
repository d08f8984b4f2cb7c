import { useEffect, useState } from 'react';
import { useShell } from '@rti/console/plugin-api';
import { getProvider, onProviderChange, type ProviderId } from './map-settings';

/** The signed-in user's map provider, following header switches. */
export function useProvider(): ProviderId {
  const { user } = useShell();
  const [p, setP] = useState<ProviderId>(() => getProvider(user.userId));
  useEffect(() => onProviderChange(setP), []);
  return p;
}
