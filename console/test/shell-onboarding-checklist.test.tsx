// The first-day checklist on the home page (issue 23): each step of the current organisation's
// setup links to its list and says what is done; it goes away once every step is done.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { OnboardingChecklist } from '../src/components/onboarding-checklist';
import en from '../src/locales/en-US.json';
import { cleanup, initTestI18n, metaOf, mount, settle, stubApi, waitFor } from './support/render';

const meta = metaOf();
// the shell's own catalogue (console/src/locales) holds the checklist's texts
beforeAll(() => initTestI18n({ 'en-US': { onboarding: en.onboarding } }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const steps = (done: Record<string, number>) =>
  ['warehouses', 'carrierCodes', 'devices', 'gateways', 'users'].map((key) => ({
    key,
    resource: key,
    path: `/list/${key}`,
    count: done[key] ?? 0,
    done: (done[key] ?? 0) > 0,
  }));

describe('onboarding checklist', () => {
  it("lists the steps with what is done and opens a step's list", async () => {
    stubApi((c) => (c.path === '/organization/checklist' ? { steps: steps({ warehouses: 3 }), done: false } : null));
    const m = await mount({ path: '/', meta, element: <OnboardingChecklist /> });
    await waitFor(() => m.host.querySelector('[data-testid="onboarding-checklist"]'));
    expect(m.text()).toContain('1 of 5 steps done');
    expect(m.text()).toContain('3 set up');
    expect(m.text()).toContain('Carrier codes');
    await act(async () => (m.host.querySelector('[data-testid="onboarding-step:carrierCodes"]') as HTMLElement).click());
    await waitFor(() => m.pathname() === '/list/carrierCodes');
  });

  it('is not shown once every step is done', async () => {
    const calls = stubApi(() => ({ steps: steps({ warehouses: 1, carrierCodes: 1, devices: 1, gateways: 1, users: 1 }), done: true }));
    const m = await mount({ path: '/', meta, element: <OnboardingChecklist /> });
    await waitFor(() => calls.length > 0);
    await settle(100);
    expect(m.host.querySelector('[data-testid="onboarding-checklist"]')).toBeNull();
  });
});
