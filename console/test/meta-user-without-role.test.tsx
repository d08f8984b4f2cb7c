// A user saved with no role (issue 23 item 4): valid, but after signing in they could open
// nothing but a 403 page — the form asks before saving; cancelling saves nothing, "Save anyway"
// saves; with a role it saves at once.
import { act } from 'react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MetaCreate } from '../src/meta/pages/create';
import { saveWarning } from '../src/meta/lib/save-warnings';
import { cleanup, fakeData, initTestI18n, metaOf, mount, settle, thingsResource, typeInto, waitFor } from './support/render';

const role = thingsResource('role', [{ name: 'name', type: 'string', required: true, search: 'like' }]);
const user = thingsResource('user', [
  { name: 'name', type: 'string', required: true },
  { name: 'roleIds', type: 'refs', ref: { resource: 'role', label: 'name' } },
]);
const meta = metaOf(role, user);
const data = fakeData({ role: [{ id: 3, name: 'Operator' }], user: [] });
const created = () => data.calls.filter((c) => c.method === 'create');

beforeAll(() => initTestI18n({ 'en-US': { fields: { name: 'Name', roleIds: 'Roles' } } }));
afterEach(() => {
  cleanup();
  data.reset();
});

const dialog = () => document.body.querySelector('.ant-modal-confirm');
const click = (el: Element | null) => act(async () => (el as HTMLElement).click());

describe('a user without a role', () => {
  it('is asked about before saving: cancel saves nothing, "Save anyway" saves', async () => {
    const m = await mount({
      path: `${user.route}/create`,
      meta,
      dataProvider: data.provider,
      element: (
        <Routes>
          <Route path={`${user.route}/create`} element={<MetaCreate resource={user} />} />
        </Routes>
      ),
    });
    await typeInto(await waitFor(() => m.host.querySelector<HTMLInputElement>('input#name')), 'nobody');
    await click(m.host.querySelector('[data-testid=meta-save]'));
    await waitFor(() => dialog());
    expect(dialog()!.textContent).toContain('no role and no permissions');
    await click([...dialog()!.querySelectorAll('button')].find((b) => b.textContent === 'Cancel')!);
    await settle(100);
    expect(created()).toEqual([]);
    // asked again at the next save (a closed dialog may linger in the DOM while it fades: the newest one counts)
    const seen = new Set(document.body.querySelectorAll('[data-testid=meta-save-anyway]'));
    await click(m.host.querySelector('[data-testid=meta-save]'));
    const fresh = await waitFor(() => [...document.body.querySelectorAll('[data-testid=meta-save-anyway]')].find((b) => !seen.has(b)));
    await click(fresh);
    await waitFor(() => created().length === 1);
    expect(created()[0].variables).toMatchObject({ name: 'nobody' });
  });

  it('with a role (or own codes) nothing is asked', () => {
    expect(saveWarning(user, { name: 'x', roleIds: [3] })).toBeNull();
    expect(saveWarning(user, { name: 'x', roleIds: [] })).toBe('meta.warning.userWithoutRole');
    expect(saveWarning(role, { name: 'x' })).toBeNull();
  });
});
