/**
 * /locating-center: find a carrier by serial, name, carrier code, beacon mac/serial or GPS
 * serial; pick one of the matches to see where it is now. "New window" opens the same view
 * standalone (/carrier-locating?carrierId=…).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Input, List, Space, Tag } from 'antd';
import { ExportOutlined } from '@ant-design/icons';
import { Guarded, request } from '@rti/console/plugin-api';
import type { LocatedCarrier } from '../shared/vehicle-answer';
import { CarrierLocation } from './carrier-location';
import { fmtTime } from './format';

export default function LocatingCenterPage() {
  const { t } = useTranslation();
  const [matches, setMatches] = useState<LocatedCarrier[]>();
  const [picked, setPicked] = useState<number>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);
  const search = async (keyword: string) => {
    if (!keyword.trim()) return;
    setLoading(true);
    setError(undefined);
    try {
      const a = await request<{ list: LocatedCarrier[] }>('/jimi/carrier/gps', { keyword: keyword.trim() });
      setMatches(a.list);
      setPicked(a.list[0]?.id);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setLoading(false);
    }
  };
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8, height: 'calc(100vh - 150px)', minHeight: 560 }} data-testid="locating-center">
      <Space wrap>
        <span data-testid="locating-search">
          <Input.Search
            enterButton
            loading={loading}
            allowClear
            placeholder={t('vehicle.locateHint')}
            style={{ width: 420 }}
            onSearch={(v) => void search(v)}
          />
        </span>
        <Guarded open="/carrier-locating">
          <Button
            icon={<ExportOutlined />}
            disabled={!picked}
            onClick={() => window.open(`/carrier-locating?carrierId=${picked}`, '_blank')}
            data-testid="locating-new-window"
          >
            {t('vehicle.newWindow')}
          </Button>
        </Guarded>
      </Space>
      {error && <Alert type="error" showIcon message={error} />}
      <div style={{ display: 'flex', gap: 8, flex: 1, minHeight: 0 }}>
        <List
          size="small"
          bordered
          style={{ width: 260, overflow: 'auto' }}
          dataSource={matches ?? []}
          locale={{ emptyText: matches ? t('vehicle.noMatch') : t('vehicle.locateHint') }}
          data-testid="locating-matches"
          renderItem={(c) => (
            <List.Item
              onClick={() => setPicked(c.id)}
              style={{ cursor: 'pointer', background: c.id === picked ? '#e6f4ff' : undefined }}
              data-testid={`locating-match:${c.sn}`}
            >
              <List.Item.Meta
                title={c.sn}
                description={
                  <>
                    {c.source ? <Tag>{t(`vehicle.sources.${c.source}`)}</Tag> : null}
                    {c.warehouse?.name ?? ''} {fmtTime(c.lastSeen)}
                  </>
                }
              />
            </List.Item>
          )}
        />
        <div style={{ flex: 1, minWidth: 0 }}>
          <CarrierLocation carrierId={picked} />
        </div>
      </div>
    </div>
  );
}
