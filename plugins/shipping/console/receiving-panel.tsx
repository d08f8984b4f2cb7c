/**
 * The receiving panel of a receipt's detail page (zone `receipt.show.before`): live counts
 * (expected / received / missing / extra, from the receipt's roll-ups), a scan box (a scanner's
 * Enter sends the serial; several pasted at once go as one batch), receiving a whole container,
 * and every refusal listed with its serial and the server's reason. Scans arriving while a call
 * runs are queued and sent together, so a fast scanner loses nothing. While the receipt is
 * receiving, the counts and lines are read again every few seconds (others may scan too).
 */
import { useCallback, useEffect, useRef, useState, type ClipboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, App, Button, Card, Col, Input, List, Row, Space, Statistic, Typography, type InputRef } from 'antd';
import { BarcodeOutlined, InboxOutlined } from '@ant-design/icons';
import { request, useCan, type ZoneProps } from '@rti/console/plugin-api';
import { parseSerials as parseKeys } from './serials';
import { newerReceipt, receiptCounts, receiptOpen, receiptReceiving, scanSummary, type ScanAnswer, type ScanRefused } from './receiving';

/** how often the counts are read again while receiving */
const LIVE_MS = 5000;
/** refusals kept on screen, newest first */
const MAX_REFUSED = 200;

interface Pending {
  keys: string[];
  containers: string[];
}

export default function ReceivingPanel({ record, refresh }: ZoneProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const receiptId = Number(record.id);
  const canScan = useCan({ call: '/receipt-detail/scan' });
  const open = receiptOpen(record);
  const receiving = receiptReceiving(record);
  // the receipt as the last scan answered it, until the page reads the record again
  const [fresh, setFresh] = useState<Record<string, unknown>>();
  const counts = receiptCounts(newerReceipt(record, fresh));

  const [serial, setSerial] = useState('');
  const [container, setContainer] = useState('');
  const [busy, setBusy] = useState(false);
  const [last, setLast] = useState<{ received: number; extra: number; refused: number }>();
  const [refused, setRefused] = useState<ScanRefused[]>([]);
  const scanInput = useRef<InputRef>(null);
  const pending = useRef<Pending>({ keys: [], containers: [] });
  const running = useRef(false);

  // live while receiving, only when the page is visible
  useEffect(() => {
    if (!receiving) return;
    const timer = setInterval(() => document.visibilityState === 'visible' && !running.current && refresh(), LIVE_MS);
    return () => clearInterval(timer);
  }, [receiving, refresh]);

  const flush = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      while (pending.current.keys.length || pending.current.containers.length) {
        const { keys, containers } = pending.current;
        pending.current = { keys: [], containers: [] };
        try {
          const a = await request<ScanAnswer>('/receipt-detail/scan', {
            receiptId,
            ...(keys.length ? { keys } : {}),
            ...(containers.length ? { containers } : {}),
          });
          const sum = scanSummary(a);
          setLast(sum);
          if (a.header) setFresh(a.header);
          if (a.refused.length) setRefused((r) => [...a.refused.slice().reverse(), ...r].slice(0, MAX_REFUSED));
          if (sum.received || sum.extra) void message.success(t(sum.extra ? 'receiving.acceptedExtra' : 'receiving.accepted', sum));
          if (sum.refused) void message.warning(t('receiving.refusedCount', { count: sum.refused }));
        } catch (e) {
          // the whole call was refused (permission, a closed receipt): nothing scanned is lost from view
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
  }, [receiptId, message, t, refresh]);

  const send = (keys: string[], containers: string[] = []) => {
    if (!keys.length && !containers.length) return;
    pending.current.keys.push(...keys);
    pending.current.containers.push(...containers);
    void flush();
  };

  const submitSerial = () => {
    const keys = parseKeys(serial);
    setSerial('');
    send(keys);
    scanInput.current?.focus();
  };
  // several serials pasted at once are one batch; a single one is just typed in
  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    const keys = parseKeys(e.clipboardData.getData('text'));
    if (keys.length < 2) return;
    e.preventDefault();
    setSerial('');
    send(keys);
  };
  const submitContainer = () => {
    const containers = parseKeys(container);
    setContainer('');
    send([], containers);
  };

  const count = (key: keyof typeof counts, color?: string) => (
    <Col xs={12} sm={6} data-testid={`receiving-count-${key}`} data-value={counts[key]}>
      <Statistic title={t(`receiving.${key}`)} value={counts[key]} valueStyle={color && counts[key] ? { color } : undefined} />
    </Col>
  );

  return (
    <Card size="small" title={t('receiving.title')} data-testid="receiving-panel">
      <Row gutter={[12, 12]} data-testid="receiving-counts">
        {count('expected')}
        {count('received', '#389e0d')}
        {count('missing', '#cf1322')}
        {count('extra', '#d46b08')}
      </Row>
      {open && canScan && (
        <Space direction="vertical" style={{ width: '100%', marginTop: 16 }}>
          <Input
            ref={scanInput}
            size="large"
            prefix={<BarcodeOutlined />}
            value={serial}
            onChange={(e) => setSerial(e.target.value)}
            onPressEnter={submitSerial}
            onPaste={onPaste}
            placeholder={t('receiving.scanPlaceholder')}
            aria-label={t('receiving.scanPlaceholder')}
            autoComplete="off"
            enterKeyHint="send"
            data-testid="receiving-scan"
          />
          <Typography.Text type="secondary">{t('receiving.scanHint')}</Typography.Text>
          <Space.Compact style={{ width: '100%' }}>
            <Input
              prefix={<InboxOutlined />}
              value={container}
              onChange={(e) => setContainer(e.target.value)}
              onPressEnter={submitContainer}
              placeholder={t('receiving.containerPlaceholder')}
              aria-label={t('receiving.containerPlaceholder')}
              autoComplete="off"
              data-testid="receiving-container"
            />
            <Button onClick={submitContainer} disabled={!container.trim()} data-testid="receiving-container-submit">
              {t('receiving.byContainer')}
            </Button>
          </Space.Compact>
        </Space>
      )}
      {last && (
        <Alert
          style={{ marginTop: 12 }}
          type={last.refused ? 'warning' : 'success'}
          showIcon
          message={[
            last.received || last.extra ? t(last.extra ? 'receiving.acceptedExtra' : 'receiving.accepted', last) : '',
            last.refused ? t('receiving.refusedCount', { count: last.refused }) : '',
          ]
            .filter(Boolean)
            .join(' · ')}
          data-testid="receiving-result"
          data-busy={busy}
        />
      )}
      {refused.length > 0 && (
        <div style={{ marginTop: 12 }} data-testid="receiving-refused">
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <Typography.Text strong>{t('receiving.refusedTitle', { count: refused.length })}</Typography.Text>
            <Button size="small" type="link" onClick={() => setRefused([])} data-testid="receiving-refused-clear">
              {t('receiving.clear')}
            </Button>
          </Space>
          <List
            size="small"
            bordered
            dataSource={refused}
            renderItem={(r, i) => (
              <List.Item key={`${i}:${r.key}`} data-testid={`receiving-refused:${r.key}`}>
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
}
