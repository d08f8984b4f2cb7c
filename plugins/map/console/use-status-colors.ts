import { useMemo } from 'react';
import { useMetadata } from '@rti/console/plugin-api';
import { tagRgb } from './map-settings';

/** Colours of an enum's values (metadata), as RGB for the map layers. */
export function useEnumColors(name: string) {
  const { enums } = useMetadata();
  return useMemo(() => {
    const values = enums[name] ?? [];
    const byValue = new Map(values.map((v) => [Number(v.value), tagRgb(v.color)]));
    return { values, color: (st: number) => byValue.get(st) ?? tagRgb('default') };
  }, [enums, name]);
}
