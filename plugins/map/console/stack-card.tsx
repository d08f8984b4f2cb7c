/**
 * Several points at one position (carriers placed at their warehouse, a tracker and its
 * carrier): the list to choose one from, by serial and name, filterable; the choice opens its
 * detail card.
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Card, Empty, Input, List, Spin } from 'antd';
import { CloseOutlined } from '@ant-design/icons';
import { request } from '@rti/console/plugin-api';
import { rgbCss } from './map-settings';

/** names are asked for this many at most; a bigger stack says how many more there are */
export const STACK_NAMES = 200;

interface StackPoint {
  index: number;
  id: number;
  kind: number;
  st: number;
}
interface Named {
  kind: number;
  id: number;
  sn: string;
  name: string | null;
}

export function StackCard({
  points,
  statusColor,
  onPick,
  onClose,
}: {
  points: StackPoint[];
  statusColor: (v: number) => [number, number, number];
  onPick: (index: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [names, setNames] = useState<Map<string, Named>>();
  const [q, setQ] = useState('');
  const shown = points.slice(0, STACK_NAMES);
  useEffect(() => {
    setNames(undefined);
    const ctrl = new AbortController();
    request<{ list: Named[] }>('/map/log', { points: shown.map((p) => ({ kind: p.kind, id: p.id })) }, { signal: ctrl.signal })
      .then((a) => setNames(new Map(a.list.map((n) => [`${n.kind}/${n.id}`, n]))))
      .catch(() => setNames(new Map()));
    return () => ctrl.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [points]);
  const rows = useMemo(() => {
    const needle = q.trim().toLowerCase();
    return shown
      .map((p) => ({ ...p, named: names?.get(`${p.kind}/${p.id}`) }))
      .filter((r) => !needle || `${r.named?.sn ?? ''} ${r.named?.name ?? ''}`.toLowerCase().includes(needle));
  }, [shown, names, q]);
  return (
    <Card
      size="small"
      data-testid="map-stack"
      title={t('map.stackTitle', { count: points.length })}
      extra={<Button size="small" type="text" icon={<CloseOutlined />} onClick={onClose} aria-label={t('map.close')} />}
      style={{ position: 'absolute', right: 12, top: 12, width: 'min(320px, calc(100% - 24px))', zIndex: 5, boxShadow: '0 6px 16px rgba(0,0,0,.15)' }}
    >
      <Input allowClear size="small" placeholder={t('map.snSearch')} value={q} onChange={(e) => setQ(e.target.value)} style={{ marginBottom: 6 }} />
      {!names ? (
        <Spin />
      ) : rows.length ? (
        <List
          size="small"
          style={{ maxHeight: 300, overflow: 'auto' }}
          dataSource={rows}
          renderItem={(r) => (
            <List.Item className="clickable" onClick={() => onPick(r.index)} data-testid={`map-stack-item:${r.kind}/${r.id}`} style={{ padding: '4px 0' }}>
              <span style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, marginRight: 8, background: rgbCss(statusColor(r.st)) }} />
              <span style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                {r.kind === 2 ? 'GPS ' : ''}
                {r.named ? `${r.named.sn}${r.named.name ? ' · ' + r.named.name : ''}` : '…'}
              </span>
            </List.Item>
          )}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      )}
      {points.length > STACK_NAMES && (
        <div style={{ color: '#8c8c8c', fontSize: 12, marginTop: 4 }}>{t('map.stackMore', { count: points.length - STACK_NAMES })}</div>
      )}
    </Card>
  );
}
