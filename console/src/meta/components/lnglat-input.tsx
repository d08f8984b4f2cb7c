import { InputNumber, Space } from 'antd';
import type { FC } from 'react';
import { useMetaT } from '../hooks/use-meta';

type LngLat = [number | null, number | null];

/** Longitude and latitude as two bounded numbers. */
export const LngLatInput: FC<{ value?: LngLat | null; onChange?: (v: LngLat | null) => void; disabled?: boolean; id?: string }> = ({
  value,
  onChange,
  disabled,
  id,
}) => {
  const { t } = useMetaT();
  const [lng, lat] = value ?? [null, null];
  const set = (next: LngLat) => onChange?.(next[0] === null && next[1] === null ? null : next);
  return (
    <Space.Compact style={{ width: '100%' }}>
      <InputNumber
        id={id}
        style={{ width: '50%' }}
        min={-180}
        max={180}
        precision={6}
        placeholder={t('meta.longitude')}
        value={lng}
        disabled={disabled}
        onChange={(v) => set([v, lat])}
      />
      <InputNumber
        style={{ width: '50%' }}
        min={-90}
        max={90}
        precision={6}
        placeholder={t('meta.latitude')}
        value={lat}
        disabled={disabled}
        onChange={(v) => set([lng, v])}
      />
    </Space.Compact>
  );
};
