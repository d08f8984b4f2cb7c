/**
 * The generated report page against a stubbed API: the description's texts label the search
 * form and the table, a search sends the parameters (a date range as whole days), paging asks
 * the list call again, the chart hint draws, and Export posts the same body to the export call.
 */
import { act } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import dayjs from 'dayjs';
import { ReportPage, bodyFromSearch, formFromSearch, reportBody, reportLink, type ReportDescription } from '../src/meta/pages/report';
import { cleanup, initTestI18n, metaOf, mount, stubApi, waitFor, type ApiCall } from './support/render';

const meta = metaOf();
const description: ReportDescription = {
  name: 'demo.stock',
  title: 'demo.title',
  calls: { list: '/demo/stock/list', export: '/demo/stock/export' },
  parameters: [
    { name: 'time', type: 'datetime', search: 'range' },
    { name: 'code', type: 'string', search: 'like', label: 'demo.code' },
  ],
  columns: [
    { key: 'code', label: 'demo.code' },
    { key: 'count', label: 'demo.count', type: 'int', unit: 'units.pieces' },
    { key: 'total.runningMs', label: 'demo.running', type: 'duration' },
  ],
  sheets: ['demo.title'],
  rowKey: 'code',
  chart: { type: 'bar', x: 'code', y: ['count'] },
  texts: {
    'demo.title': 'Stock report',
    'demo.code': 'Warehouse code',
    'demo.count': 'Carriers',
    'demo.running': 'Running',
    'units.pieces': 'pcs',
    'fields.time': 'Time',
  },
};
const rows = Array.from({ length: 12 }, (_, i) => ({ code: `W-${String(i + 1).padStart(2, '0')}`, count: i, total: { runningMs: 5_400_000 } }));
let calls: ApiCall[] = [];

beforeAll(async () => {
  await initTestI18n();
  calls = stubApi(({ path, body }) => {
    if (path === '/report/definition') return description;
    if (path === '/demo/stock/list') {
      const page = Number(body.page ?? 1);
      const limit = Number(body.limit ?? 10);
      return { list: rows.slice((page - 1) * limit, page * limit), total: rows.length };
    }
    if (path === '/demo/stock/export')
      return new Response(new Uint8Array([0x50, 0x4b]), { headers: { 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } });
    return new Response('{}', { status: 404 });
  });
  URL.createObjectURL = () => 'blob:x';
  URL.revokeObjectURL = () => undefined;
});
// the page stays mounted across the tests: the export test uses what the first one drew
afterAll(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the report page', () => {
  it('draws form, table and chart from the description and pages the list call', async () => {
    await mount({ path: '/report/demo.stock', meta, element: <ReportPage name="demo.stock" /> });
    await waitFor(() => document.querySelectorAll('[data-testid=report-table] tbody tr.ant-table-row').length === 10);
    expect(calls.find((c) => c.path === '/report/definition')!.body).toEqual({ name: 'demo.stock' });
    const headers = [...document.querySelectorAll('[data-testid=report-table] thead th')].map((th) => th.textContent);
    expect(headers).toEqual(['Warehouse code', 'Carriers (pcs)', 'Running']);
    const first = [...document.querySelectorAll('[data-testid=report-table] tbody tr.ant-table-row')][0];
    expect([...first.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['W-01', '0', '1:30']);
    expect(document.querySelector('[data-testid=report-search]')!.textContent).toContain('Warehouse code');
    expect(document.querySelectorAll('[data-testid=report-chart] rect')).toHaveLength(10);
    expect(document.body.textContent).toContain('Stock report');
    await act(async () => document.querySelector<HTMLElement>('.ant-pagination-item-2')!.click());
    await waitFor(() => document.querySelectorAll('[data-testid=report-table] tbody tr.ant-table-row').length === 2);
    expect(calls.filter((c) => c.path === '/demo/stock/list').at(-1)!.body).toEqual({ page: 2, limit: 10 });
  });

  it('exports with the same parameters', async () => {
    await act(async () => document.querySelector<HTMLElement>('[data-testid=report-export]')!.click());
    await waitFor(() => calls.some((c) => c.path === '/demo/stock/export'));
    expect(calls.find((c) => c.path === '/demo/stock/export')!.body).toEqual({});
  });

  it('turns a date range into whole days in milliseconds', () => {
    const dayjs = (s: string) => ({
      startOf: () => ({ valueOf: () => Date.parse(`${s}T00:00:00Z`) }),
      endOf: () => ({ valueOf: () => Date.parse(`${s}T23:59:59.999Z`) }),
    });
    const body = reportBody(description.parameters, { time: [dayjs('2026-01-01'), dayjs('2026-01-02')], code: 'W', unknown: 1 });
    expect(body).toEqual({ time: [Date.parse('2026-01-01T00:00:00Z'), Date.parse('2026-01-02T23:59:59.999Z')], code: 'W' });
  });
});

describe('a report opened by a link with parameters (a drill-down)', () => {
  it('reads the parameters it declares from the address, ids as numbers', () => {
    const params = [
      { name: 'warehouseId', type: 'ref' as const },
      { name: 'view', type: 'string' as const },
    ];
    expect(bodyFromSearch(params, 'warehouseId=3&view=idle&other=1&empty=')).toEqual({ warehouseId: 3, view: 'idle' });
    expect(bodyFromSearch(params, '')).toEqual({});
  });

  it("gives a date parameter its picker's day in the form, and sends it back as the day", () => {
    const params = [
      { name: 'day', type: 'date' as const },
      { name: 'warehouseId', type: 'ref' as const },
    ];
    const given = bodyFromSearch(params, 'day=2026-11-25&warehouseId=3');
    expect(given).toEqual({ day: '2026-11-25', warehouseId: 3 });
    const form = formFromSearch(params, given);
    expect(dayjs.isDayjs(form.day)).toBe(true);
    expect(reportBody(params, form)).toEqual({ day: '2026-11-25', warehouseId: 3 });
  });

  it('lists filtered by them and shows them in the search form', async () => {
    await mount({ path: '/report/demo.stock?code=W-03', meta, element: <ReportPage name="demo.stock" /> });
    await waitFor(() => calls.some((c) => c.path === '/demo/stock/list' && c.body.code === 'W-03'));
    expect(calls.filter((c) => c.path === '/demo/stock/list').at(-1)!.body).toEqual({ code: 'W-03', page: 1, limit: 10 });
    // the page mounted last (the first test's page is still on the document)
    expect([...document.querySelectorAll<HTMLInputElement>('[data-testid=report-search] input#code')].at(-1)?.value).toBe('W-03');
  });
});

describe('a column that links to a detail page', () => {
  it("fills the row's values into the path; no link when a value is missing", () => {
    expect(reportLink('/report/truck/detail?id={id}', { id: 14 })).toBe('/report/truck/detail?id=14');
    expect(reportLink('/x/{a.b}/{c}', { a: { b: 'S O' }, c: 2 })).toBe('/x/S%20O/2');
    expect(reportLink('/report/truck/detail?id={id}', { id: null })).toBeNull();
    expect(reportLink(undefined, { id: 1 })).toBeNull();
  });
});
