// Paging past the server's count cap (issue 23 defect 6): with 10,500 rows the server counts
// 10,000 and says "more"; "go to 1050" must reach the last page instead of clamping to 1000,
// "Last page" must find the real end, and a page asked for past the end moves to the last one.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDataProvider } from '../src/providers/data-provider';
import { MetaList } from '../src/meta/pages/list';
import { MAX_PAGE, pageAfterAnswer, pagerTotal, parsePage } from '../src/meta/lib/paging';
import { type ApiCall, cleanup, initTestI18n, metaOf, mount, settle, stubApi, thingsResource, typeInto, waitFor } from './support/render';
import { act } from 'react';

const carrier = thingsResource('crate', [{ name: 'sn', type: 'string', search: 'like', list: { sortable: true } }], { defaultSort: 'id' });
const meta = metaOf(carrier);
const ROWS = 10_500;
const CAP = 10_000;

/** the server's list answer (server/src/resources/repository.ts list): exact up to the cap or the page asked for */
function answer(call: ApiCall) {
  const page = Number(call.body.page ?? 1);
  const limit = Number(call.body.limit ?? 10);
  const offset = (page - 1) * limit;
  const list = Array.from({ length: Math.max(0, Math.min(limit, ROWS - offset)) }, (_, i) => ({ id: offset + i + 1, sn: `C-${offset + i + 1}` }));
  const bound = Math.max(CAP, offset + limit);
  return ROWS > bound ? { list, total: bound, totalCapped: true } : { list, total: ROWS };
}

let sent: ApiCall[] = [];
const pages = () => sent.filter((c) => c.path === '/crate/list').map((c) => c.body.page);

beforeAll(() => initTestI18n({ 'en-US': { fields: { sn: 'Serial' } } }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function open() {
  sent = stubApi(answer);
  const m = await mount({ path: carrier.route, meta, dataProvider: createDataProvider((n) => meta.resources[n]), element: <MetaList resource={carrier} /> });
  await waitFor(() => m.text().includes('C-1'));
  return m;
}

const click = (el: Element) => act(async () => void (el as HTMLElement).click());

describe('paging past the count cap', () => {
  it('goes to a page past 10,000 rows and shows its rows', async () => {
    const m = await open();
    expect(m.host.querySelector('[data-testid="meta-total"]')?.textContent).toBe('1-10 of more than 10000 items');
    await typeInto(m.host.querySelector('[data-testid="page-jumper-input"]') as HTMLInputElement, '1050');
    await click(m.host.querySelector('[data-testid="page-jumper-go"]')!);
    await waitFor(
      () => m.text().includes('C-10500'),
      5000,
      () => `pages asked: ${pages().join(',')}`,
    );
    expect(pages().at(-1)).toBe(1050);
    expect(m.host.querySelector('[data-testid="meta-total"]')?.textContent).toBe('10491-10500 of 10500 items');
  });

  it('"Last page" finds the real end past the cap', async () => {
    const m = await open();
    await click(m.host.querySelector('[data-testid="page-jumper-last"]')!);
    await waitFor(
      () => m.text().includes('C-10500'),
      5000,
      () => `pages asked: ${pages().join(',')}`,
    );
    expect(pages()).toContain(MAX_PAGE);
    expect(pages().at(-1)).toBe(1050);
  });

  it('"next" goes on past page 1000', async () => {
    const m = await open();
    await typeInto(m.host.querySelector('[data-testid="page-jumper-input"]') as HTMLInputElement, '1000');
    await click(m.host.querySelector('[data-testid="page-jumper-go"]')!);
    await waitFor(() => m.text().includes('C-10000'));
    await settle(50);
    const next = m.host.querySelector('.ant-pagination-next:not(.ant-pagination-disabled) button, li.ant-pagination-next:not(.ant-pagination-disabled)');
    expect(next).not.toBeNull();
    await click(next!);
    await waitFor(
      () => m.text().includes('C-10010'),
      5000,
      () => `pages asked: ${pages().join(',')}`,
    );
    expect(pages().at(-1)).toBe(1001);
  });
});

describe('paging helpers', () => {
  it('offers one page past a capped total, none past an exact one', () => {
    expect(pagerTotal(10_000, true, 10)).toBe(10_010);
    expect(pagerTotal(523, false, 10)).toBe(523);
  });
  it('reads typed page numbers', () => {
    expect(parsePage(' 1,050 ')).toBe(1050);
    expect(parsePage('0')).toBe(1);
    expect(parsePage('99999999')).toBe(MAX_PAGE);
    expect(parsePage('abc')).toBeNull();
  });
  it('moves a page past the end to the last one', () => {
    expect(pageAfterAnswer(MAX_PAGE, { total: 10_500, rows: 0 }, 10)).toBe(1050);
    expect(pageAfterAnswer(7, { total: 10_000, totalCapped: true, rows: 0 }, 10)).toBeNull();
    expect(pageAfterAnswer(3, { total: 25, rows: 5 }, 10)).toBeNull();
    expect(pageAfterAnswer(1, { total: 0, rows: 0 }, 10)).toBeNull();
  });
});
