import { Suspense, lazy, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Button, Card, DatePicker, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { downloadBlob, reportPage, request, useCan } from '@rti/console/plugin-api';

const Report = lazy(reportPage('pool-analytics.partner-statement'));

/**
 * /report/pool/partner-statement: the generated page of the statement report, with a PDF of one
 * partner's statement for a month above it (`/pool-analytics/partner-statement/pdf`).
 */
export default function StatementPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [partners, setPartners] = useState<Array<{ value: number; label: string }>>([]);
  const [partnerId, setPartnerId] = useState<number>();
  const [month, setMonth] = useState<Dayjs | null>(null);
  const [busy, setBusy] = useState(false);
  const mayPrint = useCan({ call: '/pool-analytics/partner-statement/pdf' });
  useEffect(() => {
    request<Array<{ id: number; name: string }>>('/supplier-customer/all', {}).then(
      (rows) => setPartners(rows.map((r) => ({ value: r.id, label: r.name }))),
      () => setPartners([]),
    );
  }, []);
  const pdf = async () => {
    if (!partnerId) return;
    setBusy(true);
    try {
      // the call's month parameter (YYYY-MM), not a display
      const m = month ? `${month.year()}-${String(month.month() + 1).padStart(2, '0')}` : undefined;
      const blob = await request<Blob>('/pool-analytics/partner-statement/pdf', { partnerId, ...(m ? { month: m } : {}) }, { blob: true, timeoutMs: 120_000 });
      downloadBlob(blob, `partner-statement-${partnerId}-${m ?? 'last-month'}.pdf`);
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {mayPrint && (
        <Card size="small" title={t('poolAnalytics.pdfTitle')}>
          <Space wrap>
            <Select
              data-testid="pool-statement-partner"
              style={{ minWidth: 220 }}
              showSearch
              optionFilterProp="label"
              placeholder={t('poolAnalytics.partner')}
              options={partners}
              value={partnerId}
              onChange={setPartnerId}
            />
            <DatePicker picker="month" placeholder={t('poolAnalytics.lastMonth')} value={month} onChange={setMonth} />
            <Button data-testid="pool-statement-pdf" type="primary" disabled={!partnerId} loading={busy} onClick={() => void pdf()}>
              {t('poolAnalytics.pdf')}
            </Button>
          </Space>
        </Card>
      )}
      <Suspense fallback={null}>
        <Report />
      </Suspense>
    </Space>
  );
}
