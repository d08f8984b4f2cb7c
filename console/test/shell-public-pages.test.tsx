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

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const calls: Array<{ path: string; body: Record<string, unknown>; headers: Record<string, string> }> = [];
const envelope = (data: unknown) => new Response(JSON.stringify({ code: 0, message: 'ok', data }), { headers: { 'Content-Type': 'application/json' } });
const page = {
  order: { orderNo: 'SO202611240007', type: 2, status: 2, shipperWarehouse: 'Shanghai Hub', receiverWarehouse: 'Osaka', transportType: 20, conveyanceNo: 'TRK-7', totalAmount: 3, receivedAmount: 0, missingAmount: 0, extraAmount: 0 },
  containers: [{ containerNo: 'K1', quantity: 2, received: 0 }, { containerNo: 'K2', quantity: 1, received: 0 }],
  lines: [{ carrierSn: 'BOX-1', containerNo: 'K1', status: 20 }, { carrierSn: 'BOX-2', containerNo: 'K1', status: 20 }, { carrierSn: 'BOX-3', containerNo: 'K2', status: 20 }],
  lineTotal: 3,
  truncated: false,
};

let root: Root | undefined;
let container: HTMLDivElement;
const realFetch = globalThis.fetch;

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

async function until(check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out; page: ${container.textContent?.slice(0, 300)}`);
    await act(async () => new Promise((r) => setTimeout(r, 20)));
  }
}

beforeAll(async () => {
  localStorage.clear();
  await initI18n();
  globalThis.fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url).replace(/^.*\/api/, '');
    calls.push({ path, body: JSON.parse(String(init?.body ?? '{}')), headers: (init?.headers ?? {}) as Record<string, string> });
    if (path === '/info/ship-order') {
      const token = (JSON.parse(String(init?.body ?? '{}')) as { token?: string }).token;
      return token === TOKEN ? envelope(page) : new Response(JSON.stringify({ code: 10002, message: 'Data not found', data: null }), { headers: { 'Content-Type': 'application/json' } });
    }
    return new Response('{}', { status: 404 });
  }) as typeof fetch;
});
afterAll(() => {
  globalThis.fetch = realFetch;
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
