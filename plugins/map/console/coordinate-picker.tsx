import { EnvironmentOutlined } from '@ant-design/icons';
import { Button, Form, Modal, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormZoneProps } from '@rti/console/plugin-api';
import { PROVIDER_A } from './map-settings';
import { MapView } from './map-view';

const DEFAULT: [number, number] = [121.47, 31.23];
const round = (v: number) => Math.round(v * 1e6) / 1e6;

/**
 * `location.form.after`: a location's longitude and latitude picked on the map — a click sets
 * both form fields (rounded to the fields' six decimals); the typed numbers stay editable.
 */
export default function CoordinatePicker({ form }: FormZoneProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const lng = Form.useWatch('longitude', form) as number | null | undefined;
  const lat = Form.useWatch('latitude', form) as number | null | undefined;
  const [picked, setPicked] = useState<[number, number] | null>(null);
  const has = typeof lng === 'number' && typeof lat === 'number';
  const at = picked ?? (has ? [lng, lat] : DEFAULT);
  // the map opens on the form's point (or a default city), re-centred only when the dialog opens
  const target = useMemo(() => ({ lng: at[0], lat: at[1], zoom: has ? 14 : 9, seq: open ? 1 : 0 }), [open]); // eslint-disable-line react-hooks/exhaustive-deps
  const marker = picked ?? (has ? [lng, lat] : null);
  const spot = marker ? [{ id: 0, orgId: 0, name: t('map.picked'), lng: marker[0], lat: marker[1], color: '#fa541c', fence: null }] : [];
  return (
    <>
      <Button icon={<EnvironmentOutlined />} onClick={() => (setPicked(null), setOpen(true))} data-testid="coordinate-picker-open">
        {t('map.pickOnMap')}
      </Button>
      <Modal
        open={open}
        title={t('map.pickOnMap')}
        width={760}
        destroyOnHidden
        onCancel={() => setOpen(false)}
        okButtonProps={{ disabled: !picked, 'data-testid': 'coordinate-picker-ok' } as never}
        onOk={() => {
          if (picked) form.setFieldsValue({ longitude: picked[0], latitude: picked[1] });
          setOpen(false);
        }}
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text type="secondary">{t('map.pickHint')}</Typography.Text>
          <div style={{ position: 'relative', height: 420 }} data-testid="coordinate-picker-map">
            <MapView
              provider={PROVIDER_A}
              target={target}
              statusColor={() => [22, 119, 255]}
              warehouses={spot}
              onMapClick={([x, y]) => setPicked([round(x), round(y)])}
            />
          </div>
          <Typography.Text data-testid="coordinate-picker-value">{marker ? `${marker[0].toFixed(6)}, ${marker[1].toFixed(6)}` : '—'}</Typography.Text>
        </Space>
      </Modal>
    </>
  );
}
