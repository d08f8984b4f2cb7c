// The generated detail page of a resource with steps shows its timeline (who ran which step when,
// from `<prefix>/timeline`), collapsible; a step's guard hides the button when the user lacks its
// extra permission and disables it, with the reason, when the user is the one its `notUser`
// field records (the applicant may not audit) — issue 17, M17.
import { act } from 'react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiCode, type ResourceDef } from '@rti/metadata/browser';
import { MetaShow } from '../src/meta/pages/show';
import { guardBlockingField, guardPermissionHeld, stepUser } from '../src/meta/lib/step-guard';
import { ShellProvider, type Shell } from '../src/providers/shell-context';
import { cleanup, fakeData, initTestI18n, metaOf, mount, stubApi, waitFor } from './support/render';

const claim: ResourceDef = {
  name: 'claim',
  module: 'things',
  route: '/things/claim',
  orgScoped: true,
  titleField: 'no',
  fields: [
    { name: 'no', type: 'string' },
    { name: 'status', type: 'int' },
    { name: 'appliedBy', type: 'string' },
  ],
  transitions: [
    { name: 'apply', field: 'status', from: [1], to: 2, stamp: { user: 'appliedBy' } },
    { name: 'audit', field: 'status', from: [2], to: 3, guard: { notUser: 'appliedBy' } },
    { name: 'reject', field: 'status', from: [2], to: 1, guard: { permission: 'RejectClaims' } },
  ],
} as ResourceDef;
const meta = metaOf(claim);
const codes = ['/claim/apply', '/claim/audit', '/claim/reject', '/claim/timeline'].map(apiCode);
const shellFor = (user: Record<string, unknown>, extra: string[] = []): Shell => ({
  meta,
  plugins: [],
  routes: [],
  sideMenu: [],
  access: new Set([...codes, ...extra]),
  user: user as never,
});
const TIMELINE = [
  { at: '2026-11-20T08:00:00.000Z', user: 'Alice', step: 'create', label: 'Created', from: null, to: 'New' },
  {
    at: '2026-11-21T09:30:00.000Z',
    user: 'Alice',
    step: 'apply',
    label: 'Apply',
    from: 'New',
    to: 'Applied',
    cause: { resource: 'batch', step: 'send', ids: [3], label: 'by Send of Batch B-3' },
  },
];

beforeAll(() => initTestI18n({ 'en-US': { transitions: { apply: 'Apply', audit: 'Audit', reject: 'Reject' }, fields: { appliedBy: 'Applicant' } } }));
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en-US');
});

async function open(shell: Shell) {
  const calls = stubApi((c) => (c.path === '/claim/timeline' ? TIMELINE : {}));
  const data = fakeData({ claim: [{ id: 4, no: 'CL-4', status: 2, appliedBy: 'Alice' }] });
  const view = await mount({
    path: '/things/claim/detail/4',
    route: '/things/claim/detail/:id',
    meta,
    dataProvider: data.provider,
    element: <MetaShow resource={claim} />,
    wrap: (app) => <ShellProvider value={shell}>{app}</ShellProvider>,
  });
  return { view, calls };
}

describe('the timeline on the detail page', () => {
  it('asks <prefix>/timeline for the record and lists its steps with user, statuses and cause, collapsed under a summary', async () => {
    const { view, calls } = await open(shellFor({ userId: 9, username: 'carol', realName: 'Carol' }));
    const summary = await waitFor(() => view.host.querySelector('[data-testid=meta-timeline-summary]'));
    expect(calls.find((c) => c.path === '/claim/timeline')?.body).toEqual({ id: 4 });
    expect(summary.textContent).toContain('Apply');
    expect(summary.textContent).toContain('Alice');
    const header = view.host.querySelector<HTMLElement>('[data-testid=meta-timeline] .ant-collapse-header')!;
    await act(async () => header.click());
    const entries = await waitFor(() => {
      const list = view.host.querySelectorAll('[data-testid=meta-timeline-entry]');
      return list.length === 2 ? list : null;
    });
    expect(entries[1].textContent).toContain('New → Applied');
    expect(entries[1].textContent).toContain('by Send of Batch B-3');
  });

  it('is not shown without the timeline code', async () => {
    const shell = shellFor({ userId: 9, username: 'carol' });
    shell.access.delete(apiCode('/claim/timeline'));
    const { view, calls } = await open(shell);
    await waitFor(() => view.host.querySelector('[data-testid=meta-show]'));
    expect(view.host.querySelector('[data-testid=meta-timeline]')).toBeNull();
    expect(calls.some((c) => c.path === '/claim/timeline')).toBe(false);
  });
});

describe('step guards', () => {
  it('the applicant sees Audit disabled with the reason; another user may audit', async () => {
    const { view } = await open(shellFor({ userId: 7, username: 'alice', realName: 'Alice' }));
    const audit = await waitFor(() => view.host.querySelector<HTMLButtonElement>('[data-testid=meta-step-audit]'));
    expect(audit.disabled).toBe(true);
    expect(view.host.querySelector('[data-testid=meta-step-audit-guarded]')).not.toBeNull();
    cleanup();
    vi.unstubAllGlobals();
    const other = await open(shellFor({ userId: 9, username: 'carol', realName: 'Carol' }));
    const enabled = await waitFor(() => other.view.host.querySelector<HTMLButtonElement>('[data-testid=meta-step-audit]'));
    expect(enabled.disabled).toBe(false);
  });

  it('Reject is offered only to a user holding its extra permission', async () => {
    const without = await open(shellFor({ userId: 9, username: 'carol' }));
    await waitFor(() => without.view.host.querySelector('[data-testid=meta-step-audit]'));
    expect(without.view.host.querySelector('[data-testid=meta-step-reject]')).toBeNull();
    cleanup();
    vi.unstubAllGlobals();
    const holder = await open(shellFor({ userId: 9, username: 'carol' }, ['RejectClaims']));
    expect(await waitFor(() => holder.view.host.querySelector('[data-testid=meta-step-reject]'))).not.toBeNull();
  });

  it('reads ids for int/ref fields and names for string fields, as the server stamps them', () => {
    const res = { ...claim, fields: [...claim.fields, { name: 'appliedById', type: 'ref' }] } as ResourceDef;
    const step = { name: 'audit', field: 'status', from: [2], to: 3, path: '/claim/audit', guard: { notUser: 'appliedById' } };
    const me = stepUser({ userId: '7', username: 'alice' });
    expect(guardBlockingField(res, step, { appliedById: 7 }, me)).toBe('appliedById');
    expect(guardBlockingField(res, step, { appliedById: 8 }, me)).toBeUndefined();
    expect(guardBlockingField(res, step, { appliedById: null }, me)).toBeUndefined();
    expect(
      guardBlockingField(
        claim,
        { ...step, guard: { notUser: 'appliedBy' } },
        { appliedBy: 'Alice' },
        stepUser({ userId: 1, username: 'x', realName: 'Alice' }),
      ),
    ).toBe('appliedBy');
    expect(guardPermissionHeld({ guard: { permission: 'X' } }, () => false)).toBe(false);
    expect(guardPermissionHeld({}, () => false)).toBe(true);
  });
});
