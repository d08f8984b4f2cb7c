/**
 * The scan panel of a document whose lines declare `scan` (metadata children; server
 * `<line prefix>/scan`), on its detail page above the fields: the header's filtered roll-ups as
 * live counts, a scan box (a scanner's Enter sends the key; several pasted at once go as one
 * batch), a whole container when the scan declares one, and every refusal listed with its key
 * and the server's reason. Keys arriving while a call runs are queued and sent together, so a
 * fast scanner loses nothing. While the document is open the counts and lines are read again
 * every few seconds (others may scan too). A receipt's receiving is one such panel.
 */
import { useCallback, useEffect, useRef, useState, type ClipboardEvent, type FC } from 'react';
import { Alert, App, Button, Card, Col, Input, List, Row, Space, Statistic, Typography, type InputRef } from 'antd';
import { BarcodeOutlined, InboxOutlined } from '@ant-design/icons';
import { transitionLabelKey, type ChildrenDef, type ResourceDef } from '@rti/metadata/browser';
import { request } from '../../providers/http-client';
import { useCan } from '../../components/guard/guarded';
import { useEnums, useMetaT } from '../hooks/use-meta';
import { useMetadata } from '../../providers/metadata-context';
import { headerOpen, newerRow, parseKeys, scanCounts, scanPath, scanSummary, type ScanAnswer, type ScanRefused } from '../lib/scan';

/** how often the counts are read again while the document is open */
const LIVE_MS = 5000;
/** refusals kept on screen, newest first */
const MAX_REFUSED = 200;

interface Pending {
  keys: string[];
  containers: string[];
}

export const ScanPanel: FC<{ header: ResourceDef; child: ChildrenDef; record: Record<string, unknown>; refresh: () => void }> = ({
  header,
  child,
  record,
  refresh,
}) => {
  const { t, fieldLabel } = useMetaT();
  const { message } = App.useApp();
  const enums = useEnums();
  const lines = useMetadata().resources[child.resource];
  const scan = child.scan!;
  const path = scanPath(lines);
  const canScan = useCan({ call: path });
  const open = headerOpen(header, record);
  // the header as the last scan answered it, until the page reads the record again
  const [fresh, setFresh] = useState<Record<string, unknown>>();
  const counts = scanCounts(header, child, lines, enums, newerRow(record, fresh));
  const step = lines.transitions?.find((s) => s.name === scan.step);
  const stepLabel = step ? t(transitionLabelKey(step)) : scan.step;
  const keyField = lines.fields.find((f) => f.name === scan.key);
  const containerField = scan.container ? lines.fields.find((f) => f.name === scan.container) : undefined;
  const doneStatus = step?.to;
  const statusField = step?.field ?? lines.statusField ?? 'status';
  const statusEnum = lines.fields.find((f) => f.name === statusField)?.enum;
  const statusLabel = useCallback(
    (value: unknown) => {
      const e = statusEnum ? enums[statusEnum]?.find((v) => String(v.value) === String(value)) : undefined;
      return e ? t(e.label) : String(value ?? '');
    },
    [statusEnum, enums, t],
  );

  const [keyText, setKeyText] = useState('');
  const [container, setContainer] = useState('');
  const [busy, setBusy] = useState(false);
  const [last, setLast] = useState<{ done: number; extra: number; refused: number }>();
  const [refused, setRefused] = useState<ScanRefused[]>([]);
  const scanInput = useRef<InputRef>(null);
  const pending = useRef<Pending>({ keys: [], containers: [] });
  const running = useRef(false);

  // live while open, only when the page is visible
  useEffect(() => {
    if (!open) return;
    const timer = setInterval(() => document.visibilityState === 'visible' && !running.current && refresh(), LIVE_MS);
    return () => clearInterval(timer);
  }, [open, refresh]);

  const feedback = useCallback(
    (sum: { done: number; extra: number; refused: number }) =>
      [
        sum.done ? t('meta.scanDone', { status: statusLabel(doneStatus), count: sum.done }) : '',
        sum.extra ? t('meta.scanDone', { status: statusLabel(scan.extra), count: sum.extra }) : '',
        sum.refused ? t('meta.scanRefused', { count: sum.refused }) : '',
      ]
        .filter(Boolean)
        .join(' · '),
    [t, statusLabel, doneStatus, scan.extra],
  );

  const flush = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      while (pending.current.keys.length || pending.current.containers.length) {
        const { keys, containers } = pending.current;
        pending.current = { keys: [], containers: [] };
        try {
          const a = await request<ScanAnswer>(path, {
            [child.foreignKey]: record.id,
            ...(keys.length ? { keys } : {}),
            ...(containers.length ? { containers } : {}),
          });
          const sum = scanSummary(a, scan.extra);
          setLast(sum);
          if (a.header) setFresh(a.header);
          if (a.refused.length) setRefused((r) => [...a.refused.slice().reverse(), ...r].slice(0, MAX_REFUSED));
          if (sum.done || sum.extra) void message.success(feedback({ ...sum, refused: 0 }));
          if (sum.refused) void message.warning(t('meta.scanRefused', { count: sum.refused }));
        } catch (e) {
          // the whole call was refused (permission, a closed document): nothing scanned is lost from view
          const text = e instanceof Error ? e.message : String(e);
          void message.error(text);
          setRefused((r) => [...[...keys, ...containers].reverse().map((key) => ({ key, message: text })), ...r].slice(0, MAX_REFUSED));
        }
      }
    } finally {
      running.current = false;
      setBusy(false);
      refresh();
    }
  }, [path, child.foreignKey, record.id, scan.extra, message, t, feedback, refresh]);

  const send = (keys: string[], containers: string[] = []) => {
    if (!keys.length && !containers.length) return;
    pending.current.keys.push(...keys);
    pending.current.containers.push(...containers);
    void flush();
  };
  const submitKey = () => {
    const keys = parseKeys(keyText);
    setKeyText('');
    send(keys);
    scanInput.current?.focus();
  };
  // several keys pasted at once are one batch; a single one is just typed in
  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    const keys = parseKeys(e.clipboardData.getData('text'));
    if (keys.length < 2) return;
    e.preventDefault();
    setKeyText('');
    send(keys);
  };
  const submitContainer = () => {
    const containers = parseKeys(container);
    setContainer('');
    send([], containers);
  };
  const keyLabel = keyField ? fieldLabel(keyField) : scan.key;
  const containerLabel = containerField ? fieldLabel(containerField) : '';

  return (
    <Card size="small" title={stepLabel} data-testid="scan-panel" data-lines={child.resource}>
      {counts.length > 0 && (
        <Row gutter={[12, 12]} data-testid="scan-counts">
          {counts.map((c) => (
            <Col key={c.field} xs={12} sm={Math.max(4, Math.floor(24 / counts.length))} data-testid={`scan-count-${c.field}`} data-value={c.value}>
              <Statistic title={t(c.labelKey)} value={c.value} valueStyle={c.color && c.value ? { color: c.color } : undefined} />
            </Col>
          ))}
        </Row>
      )}
      {open && canScan && (
        <Space direction="vertical" style={{ width: '100%', marginTop: 16 }}>
          <Input
            ref={scanInput}
            size="large"
            prefix={<BarcodeOutlined />}
            value={keyText}
            onChange={(e) => setKeyText(e.target.value)}
            onPressEnter={submitKey}
            onPaste={onPaste}
            placeholder={t('meta.scanPlaceholder', { field: keyLabel })}
            aria-label={t('meta.scanPlaceholder', { field: keyLabel })}
            autoComplete="off"
            enterKeyHint="send"
            data-testid="scan-input"
          />
          <Typography.Text type="secondary">{t('meta.scanHint')}</Typography.Text>
          {containerField && (
            <Space.Compact style={{ width: '100%' }}>
              <Input
                prefix={<InboxOutlined />}
                value={container}
                onChange={(e) => setContainer(e.target.value)}
                onPressEnter={submitContainer}
                placeholder={containerLabel}
                aria-label={containerLabel}
                autoComplete="off"
                data-testid="scan-container"
              />
              <Button onClick={submitContainer} disabled={!container.trim()} data-testid="scan-container-submit">
                {t('meta.scanWhole', { step: stepLabel, field: containerLabel })}
              </Button>
            </Space.Compact>
          )}
        </Space>
      )}
      {last && (
        <Alert
          style={{ marginTop: 12 }}
          type={last.refused ? 'warning' : 'success'}
          showIcon
          message={feedback(last)}
          data-testid="scan-result"
          data-busy={busy}
        />
      )}
      {refused.length > 0 && (
        <div style={{ marginTop: 12 }} data-testid="scan-refused">
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <Typography.Text strong>{t('meta.scanRefusedTitle', { count: refused.length })}</Typography.Text>
            <Button size="small" type="link" onClick={() => setRefused([])} data-testid="scan-refused-clear">
              {t('meta.clear')}
            </Button>
          </Space>
          <List
            size="small"
            bordered
            dataSource={refused}
            renderItem={(r, i) => (
              <List.Item key={`${i}:${r.key}`} data-testid={`scan-refused:${r.key}`}>
                <Space direction="vertical" size={0} style={{ minWidth: 0 }}>
                  <Typography.Text strong style={{ wordBreak: 'break-all' }}>
                    {r.key}
                  </Typography.Text>
                  <Typography.Text type="danger">{r.message}</Typography.Text>
                </Space>
              </List.Item>
            )}
          />
        </div>
      )}
    </Card>
  );
};
