/**
 * Public pages (plugins/<id>/console/public.ts): they render without a session, outside the
 * shell, at their own path — the shipping plugin's /info/ship-order shows the order its token
 * selects, and a wrong token shows only "not found".
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../src/i18n';
import { AppRoutes } from '../src/routes/app-routes';
import { publicPages } from '../src/routes/public-pages';
import { envelope, stubApi, waitFor, type ApiCall } from './support/render';

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';
let calls: ApiCall[] = [];
const page = {
  order: {
    orderNo: 'SO202611240007',
    type: 2,
    status: 2,
    shipperWarehouse: 'Shanghai Hub',
    receiverWarehouse: 'Osaka',
    transportType: 20,
    conveyanceNo: 'TRK-7',
    totalAmount: 3,
    receivedAmount: 0,
    missingAmount: 0,
    extraAmount: 0,
  },
  containers: [
    { containerNo: 'K1', quantity: 2, received: 0 },
    { containerNo: 'K2', quantity: 1, received: 0 },
  ],
  lines: [
    { carrierSn: 'BOX-1', containerNo: 'K1', status: 20 },
    { carrierSn: 'BOX-2', containerNo: 'K1', status: 20 },
    { carrierSn: 'BOX-3', containerNo: 'K2', status: 20 },
  ],
  lineTotal: 3,
  truncated: false,
};

let root: Root | undefined;
let container: HTMLDivElement;

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

async function render(path: string) {
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
  await act(async () => {
    root!.render(
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <Routes>
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>,
    );
  });
}

const until = (check: () => boolean) => waitFor(check, 5000, () => `page: ${container.textContent?.slice(0, 300)}`);

beforeAll(async () => {
  localStorage.clear();
  await initI18n();
  calls = stubApi(({ path, body }) => {
    if (path === '/info/ship-order') return body.token === TOKEN ? page : envelope(null, 10002, 'Data not found');
    return new Response('{}', { status: 404 });
  });
});
afterAll(() => {
  vi.unstubAllGlobals();
});

describe('public pages', () => {
  it('plugins declare them by path', () => {
    expect(publicPages.map((p) => p.path)).toContain('/info/ship-order');
  });

  it('renders /info/ship-order without a session: the order, its containers and carriers', async () => {
    await render(`/info/ship-order?token=${TOKEN}`);
    await until(() => !!container.querySelector('[data-testid="info-ship-order"]'));
    const text = container.textContent ?? '';
    expect(text).toContain('SO202611240007');
    expect(text).toContain('Shanghai Hub');
    expect(text).toContain('BOX-3');
    expect(text).toContain('K2');
    expect(text).toContain('Released');
    const call = calls.find((c) => c.path === '/info/ship-order')!;
    expect(call.body).toEqual({ token: TOKEN });
    expect(call.headers.Token).toBeUndefined();
    expect(container.querySelector('[data-testid="where"]')?.textContent).toBe('/info/ship-order');
    act(() => root?.unmount());
    container.remove();
  });

  it('a wrong token shows nothing of any order, only "not found"', async () => {
    await render('/info/ship-order?token=wrongwrongwrongwrongwrongwrong00');
    await until(() => /Order not found/.test(container.textContent ?? ''));
    expect(container.textContent).not.toContain('SO202611240007');
    act(() => root?.unmount());
    container.remove();
  });
});
