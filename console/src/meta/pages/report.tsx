/**
 * The generated page of a report definition (server: ctx.reports.define): the server describes
 * the report in the user's language (/report/definition: parameters, columns, calls, chart
 * hint, texts); the page draws the search form from the parameters, a paged table from the
 * list call, an export button for the export call and, when hinted, a small chart of the page.
 * A plugin registers it like any page: `{ path, title, component: reportPage('<report name>') }`.
 *
 * Test hooks: report-page, report-search (meta-search-*), report-table, report-export, report-chart.
 */
import { ExportOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Form, Space, Table, Tooltip, type TableColumnType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useCallback, useEffect, useMemo, useState, type FC } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useNavigate } from '../../lib/navigate';
import { mayUse } from '../../lib/guard';
import { useOptionalShell } from '../../providers/shell-context';
import type { FieldDef } from '@rti/metadata/browser';
import { request } from '../../providers/http-client';
import { SearchForm } from '../components/search-form';
import { useEnums, useMetaT } from '../hooks/use-meta';
import { downloadBlob } from '../lib/download';
import { findEnumValue, formatDate, isEmpty } from '../lib/format';
import { fromFormValue } from '../lib/form-values';

interface ReportColumn {
  key: string;
  label: string;
  /** what the column counts, beside the header */
  help?: string;
  unit?: string;
  type?: 'string' | 'int' | 'decimal' | 'datetime' | 'date' | 'enum' | 'bool' | 'duration';
  enum?: string;
  width?: number;
  /** the cell links to this console path, `{key}` replaced by the row's values */
  link?: string;
}

export interface ReportDescription {
  name: string;
  title: string;
  calls: { list: string | null; export: string | null };
  parameters: FieldDef[];
  columns: ReportColumn[];
  sheets: string[];
  rowKey?: string;
  chart?: { type: 'line' | 'bar'; x: string; y: string[] };
  /** buttons on each row: a call with the row's values, then maybe a page with the answer */
  actions?: ReportAction[];
  texts: Record<string, string>;
}

interface ReportAction {
  name: string;
  label: string;
  call: string;
  body: Record<string, string | number | boolean>;
  confirm?: string;
  done?: string;
  open?: string;
}

type Row = Record<string, unknown>;

const PAGE_SIZES = [10, 20, 50, 100];
const EXPORT_TIMEOUT_MS = 10 * 60_000;

const pick = (row: Row, path: string): unknown => path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Row)[k] : undefined), row);

/** A column's link for a row: `{key}` placeholders filled (URI-encoded); null when a value is missing. */
export function reportLink(template: string | undefined, row: Row): string | null {
  if (!template) return null;
  let missing = false;
  const to = template.replace(/\{([^}]+)\}/g, (_, key: string) => {
    const v = pick(row, key);
    if (isEmpty(v) || typeof v === 'object') missing = true;
    return encodeURIComponent(String(v));
  });
  return missing ? null : to;
}

/** An action's call body for a row: "{key}" is the row's value as it is, other text is filled in, the rest literal. */
export function actionBody(body: ReportAction['body'], row: Row): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).map(([k, v]) => {
      if (typeof v !== 'string') return [k, v];
      const whole = /^\{([^}]+)\}$/.exec(v);
      return [k, whole ? pick(row, whole[1]) : v.replace(/\{([^}]+)\}/g, (_, key: string) => String(pick(row, key) ?? ''))];
    }),
  );
}

/**
 * Parameters given in the page's address (`?warehouseId=3&view=idle`, a drill-down link of another
 * report): the report opens filtered by them. Digits are numbers (ids), the rest text.
 */
export function bodyFromSearch(params: FieldDef[], search: string): Record<string, unknown> {
  const names = new Set(params.map((p) => p.name));
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(search)) if (names.has(k) && v !== '') out[k] = /^\d+$/.test(v) ? Number(v) : v;
  return out;
}

/** The search form's values of such parameters: a date parameter's "YYYY-MM-DD" is its picker's day. */
export function formFromSearch(params: FieldDef[], given: Record<string, unknown>): Record<string, unknown> {
  const dates = new Set(params.filter((p) => p.type === 'date' && p.search !== 'range').map((p) => p.name));
  return Object.fromEntries(Object.entries(given).map(([k, v]) => [k, dates.has(k) && typeof v === 'string' && dayjs(v).isValid() ? dayjs(v) : v]));
}

/** h:mm of a duration in milliseconds */
const hoursMinutes = (ms: number) => `${Math.floor(ms / 3_600_000)}:${String(Math.round((ms % 3_600_000) / 60_000)).padStart(2, '0')}`;

/** Search form values → the report's call body (a date range as [start of day, end of day] in ms). */
export function reportBody(params: FieldDef[], values: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const p of params) {
    const v = values[p.name];
    if (isEmpty(v)) continue;
    if (p.search === 'range' && Array.isArray(v)) {
      const [a, b] = v as Array<Dayjs | null>;
      if (a || b) body[p.name] = [a ? a.startOf('day').valueOf() : null, b ? b.endOf('day').valueOf() : null];
    } else if (p.type === 'date')
      body[p.name] = fromFormValue(p, v, 'create'); // the API's day, as forms send it
    else body[p.name] = v;
  }
  return body;
}

/** A small chart of the page's rows: one series per y column, drawn as SVG (no chart library in the shell). */
const ReportChart: FC<{ rows: Row[]; chart: NonNullable<ReportDescription['chart']>; label: (key: string) => string }> = ({ rows, chart, label }) => {
  const W = 640;
  const H = 180;
  const pad = 24;
  const values = rows.map((r) => chart.y.map((k) => Number(pick(r, k)) || 0));
  const max = Math.max(1, ...values.flat());
  const colors = ['#1677ff', '#52c41a', '#fa8c16', '#eb2f96'];
  const step = rows.length ? (W - 2 * pad) / rows.length : 0;
  const y = (v: number) => H - pad - (v / max) * (H - 2 * pad);
  return (
    <div data-testid="report-chart" style={{ marginBottom: 12 }}>
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" height={H} role="img">
        <line x1={pad} y1={H - pad} x2={W - pad} y2={H - pad} stroke="#d9d9d9" />
        {chart.type === 'bar'
          ? values.map((vs, i) =>
              vs.map((v, j) => {
                const w = (step * 0.8) / vs.length;
                return (
                  <rect key={`${i}-${j}`} x={pad + i * step + step * 0.1 + j * w} y={y(v)} width={w} height={H - pad - y(v)} fill={colors[j % colors.length]}>
                    <title>{`${String(pick(rows[i], chart.x))} · ${label(chart.y[j])}: ${v}`}</title>
                  </rect>
                );
              }),
            )
          : chart.y.map((_, j) => (
              <polyline
                key={j}
                fill="none"
                stroke={colors[j % colors.length]}
                strokeWidth={2}
                points={values.map((vs, i) => `${pad + i * step + step / 2},${y(vs[j])}`).join(' ')}
              />
            ))}
        {rows.map((r, i) => (
          <text key={i} x={pad + i * step + step / 2} y={H - 6} fontSize={10} textAnchor="middle" fill="#8c8c8c">
            {String(pick(r, chart.x) ?? '')}
          </text>
        ))}
      </svg>
      <Space size={16}>
        {chart.y.map((k, j) => (
          <span key={k} style={{ fontSize: 12 }}>
            <span style={{ display: 'inline-block', width: 10, height: 10, background: colors[j % colors.length], marginRight: 4 }} />
            {label(k)}
          </span>
        ))}
      </Space>
    </div>
  );
};

export const ReportPage: FC<{ name: string }> = ({ name }) => {
  const { t, lng } = useMetaT();
  const { i18n } = useTranslation();
  const enums = useEnums();
  const { message, modal } = App.useApp();
  const shell = useOptionalShell();
  const navigate = useNavigate();
  const [acting, setActing] = useState<string>();
  const [reloads, setReloads] = useState(0);
  const [form] = Form.useForm();
  const [d, setD] = useState<ReportDescription>();
  const [error, setError] = useState<string>();
  const [body, setBody] = useState<Record<string, unknown>>({});
  const [page, setPage] = useState({ page: 1, limit: PAGE_SIZES[0] });
  const [data, setData] = useState<{ list: Row[]; total: number }>({ list: [], total: 0 });
  const [loading, setLoading] = useState(false);
  const [exporting, setExporting] = useState(false);

  // the description (and its texts) in the user's language
  useEffect(() => {
    let live = true;
    request<ReportDescription>('/report/definition', { name })
      .then((desc) => {
        if (!live) return;
        i18n.addResources(lng, 'translation', desc.texts);
        setD(desc);
      })
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [name, lng, i18n]);

  // a drill-down link's parameters (the address) fill the search form and filter the first page
  const [search] = useSearchParams();
  const searched = search.toString();
  useEffect(() => {
    if (!d || !searched) return;
    const given = bodyFromSearch(d.parameters, searched);
    if (!Object.keys(given).length) return;
    form.setFieldsValue(formFromSearch(d.parameters, given));
    setBody(given);
    setPage((p) => ({ ...p, page: 1 }));
  }, [d, searched, form]);

  useEffect(() => {
    if (!d?.calls.list) return;
    setLoading(true);
    setError(undefined);
    request<{ list: Row[]; total: number }>(d.calls.list, { ...body, ...page }, { timeoutMs: 120_000 })
      .then(setData)
      .catch((e: Error) => setError(e.message))
      .finally(() => setLoading(false));
  }, [d, body, page, reloads]);

  // a row's action: its call with the row's values (after the confirmation), then its page or a reload
  const act = useCallback(
    (a: ReportAction, r: Row, key: string) => {
      const run = async () => {
        setActing(key);
        try {
          const answer = await request<Row>(a.call, actionBody(a.body, r));
          void message.success(a.done ? t(a.done, answer ?? {}) : t('meta.actionDone'));
          const to = a.open ? reportLink(a.open, answer ?? {}) : null;
          if (to) navigate(to);
          else setReloads((n) => n + 1);
        } catch (e) {
          void message.error(e instanceof Error ? e.message : String(e));
        } finally {
          setActing(undefined);
        }
      };
      if (a.confirm)
        modal.confirm({ title: t(a.label), content: t(a.confirm, r), onOk: run, okButtonProps: { 'data-testid': 'report-action-confirm' } as never });
      else void run();
    },
    [message, modal, navigate, t],
  );

  const exportXlsx = useCallback(async () => {
    if (!d?.calls.export) return;
    setExporting(true);
    try {
      downloadBlob(
        await request<Blob>(d.calls.export, body, { blob: true, timeoutMs: EXPORT_TIMEOUT_MS }),
        `${t(d.title)}-${dayjs().format('YYYYMMDDHHmmss')}.xlsx`,
      );
      void message.success(t('meta.exported'));
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setExporting(false);
    }
  }, [d, body, t, message]);

  const header = useCallback((c: ReportColumn) => (c.unit ? `${t(c.label)} (${t(c.unit)})` : t(c.label)), [t]);

  const cellText = useCallback(
    (r: Row, c: ReportColumn): string => {
      const v = pick(r, c.key);
      if (isEmpty(v)) return '—';
      switch (c.type) {
        case 'datetime':
          return formatDate(v, true);
        case 'date':
          return formatDate(v, false);
        case 'duration':
          return typeof v === 'number' ? hoursMinutes(v) : String(v);
        case 'decimal':
          return typeof v === 'number' ? String(Math.round(v * 100) / 100) : String(v);
        case 'enum': {
          const e = findEnumValue(enums, c.enum, v);
          return e ? t(e.label) : String(v);
        }
        case 'bool':
          return t(v ? 'meta.yes' : 'meta.no');
        default:
          return String(v);
      }
    },
    [enums, t],
  );

  const allowed = useMemo(
    () => (d?.actions ?? []).filter((a) => !shell || mayUse({ call: a.call, open: a.open?.includes('{') ? undefined : a.open }, shell.routes, shell.access)),
    [d, shell],
  );

  const columns = useMemo<TableColumnType<Row>[]>(
    () => [
      ...(d?.columns ?? []).map((c) => ({
        key: c.key,
        title: c.help ? (
          <Space size={4}>
            {header(c)}
            <Tooltip title={t(c.help)}>
              <QuestionCircleOutlined data-testid={`report-help-${c.key}`} aria-label={t(c.help)} />
            </Tooltip>
          </Space>
        ) : (
          header(c)
        ),
        width: c.width ? c.width * 8 : undefined,
        align: c.type === 'int' || c.type === 'decimal' || c.type === 'duration' ? ('right' as const) : undefined,
        render: (_: unknown, r: Row) => {
          const text = cellText(r, c);
          const to = reportLink(c.link, r);
          return to ? <Link to={to}>{text}</Link> : text;
        },
      })),
      ...(allowed.length
        ? [
            {
              key: '__actions',
              title: t('meta.actions'),
              render: (_: unknown, r: Row, i: number) => {
                const rowKey = String(d?.rowKey ? pick(r, d.rowKey) : i);
                return (
                  <Space size={4}>
                    {allowed.map((a) => (
                      <Button
                        key={a.name}
                        size="small"
                        type="link"
                        loading={acting === `${a.name}:${rowKey}`}
                        disabled={acting !== undefined}
                        onClick={() => act(a, r, `${a.name}:${rowKey}`)}
                        data-testid={`report-action-${a.name}`}
                      >
                        {t(a.label)}
                      </Button>
                    ))}
                  </Space>
                );
              },
            },
          ]
        : []),
    ],
    [d, cellText, header, allowed, acting, act, t],
  );

  if (!d) return error ? <Alert type="error" showIcon message={error} /> : <Card loading />;
  const byKey = (k: string) => {
    const c = d.columns.find((x) => x.key === k);
    return c ? header(c) : k;
  };

  return (
    <div data-testid="report-page">
      {d.parameters.length > 0 && (
        <Card size="small" style={{ marginBottom: 12 }} styles={{ body: { paddingBottom: 0 } }} data-testid="report-search">
          <SearchForm
            fields={d.parameters}
            formProps={{
              form,
              onFinish: (values) => (setBody(reportBody(d.parameters, values as Record<string, unknown>)), setPage((p) => ({ ...p, page: 1 }))),
            }}
            onReset={() => {
              form.resetFields();
              setBody({});
              setPage((p) => ({ ...p, page: 1 }));
            }}
            loading={loading}
          />
        </Card>
      )}
      <Card
        size="small"
        title={t(d.title)}
        extra={
          // the Export button follows the user's export code (a page's View code may come without it)
          d.calls.export &&
          (!shell || mayUse({ call: d.calls.export }, shell.routes, shell.access)) && (
            <Button icon={<ExportOutlined />} loading={exporting} onClick={() => void exportXlsx()} data-testid="report-export">
              {t('meta.export')}
            </Button>
          )
        }
      >
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
        {d.chart && data.list.length > 0 && <ReportChart rows={data.list} chart={d.chart} label={byKey} />}
        <div data-testid="report-table">
          <Table<Row>
            rowKey={(r) => String(d.rowKey ? pick(r, d.rowKey) : JSON.stringify(r))}
            size="small"
            loading={loading}
            dataSource={data.list}
            columns={columns}
            scroll={{ x: 'max-content' }}
            pagination={{
              current: page.page,
              pageSize: page.limit,
              total: data.total,
              showSizeChanger: true,
              pageSizeOptions: PAGE_SIZES,
              showTotal: (total, range) => t('meta.total', { from: range[0], to: range[1], total }),
              onChange: (p, l) => setPage({ page: p, limit: l }),
            }}
          />
        </div>
      </Card>
    </div>
  );
};

export default ReportPage;
