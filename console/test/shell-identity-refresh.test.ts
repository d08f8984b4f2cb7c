// An organisation a platform administrator just created is in the switcher at once (issue 23
// defect 1): a write of an organisation, user or role through the data provider re-reads the
// user's organisations and access lists in place.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appState } from '../src/providers/app-state';
import { createDataProvider } from '../src/providers/data-provider';
import { metaOf, stubApi, thingsResource, waitFor } from './support/render';

const organization = thingsResource('organization', [{ name: 'name', type: 'string' }]);
const warehouse = thingsResource('warehouse', [{ name: 'name', type: 'string' }]);
const meta = metaOf(organization, warehouse);

afterEach(() => vi.unstubAllGlobals());

describe('identity refresh after writes', () => {
  it('puts a created organisation into the switcher and re-reads the codes', async () => {
    const before = {
      userId: 1,
      username: 'admin',
      sysOrgUser: true,
      organizations: [
        { orgId: 1, name: 'Demo' },
        { orgId: 2, name: 'Acme' },
      ],
    };
    appState.set({ status: 'ready', user: before as never, access: new Set(['ApiOrganizationCreate']), permissions: [], plugins: [] });
    const calls = stubApi((c) => {
      if (c.path === '/organization/create') return { id: 4, name: 'Nordic Crate Pool' };
      if (c.path === '/warehouse/create') return { id: 9, name: 'Oslo' };
      if (c.path === '/account/info')
        return { ...before, organizations: [...before.organizations, { orgId: 4, name: 'Nordic Crate Pool', entryCode: 'nordic' }] };
      if (c.path === '/permission/list') return { access: ['ApiOrganizationCreate', 'ApiOrganizationList'], permissions: ['/system/organization'] };
      return null;
    });
    const data = createDataProvider((n) => meta.resources[n]);
    await data.create({ resource: 'warehouse', variables: { name: 'Oslo' } });
    expect(calls.map((c) => c.path)).toEqual(['/warehouse/create']); // other writes change nobody's organisations
    await data.create({ resource: 'organization', variables: { name: 'Nordic Crate Pool' } });
    const user = await waitFor(() => (appState.get().user?.organizations?.length === 3 ? appState.get().user : null));
    expect(user?.organizations?.map((o) => o.name)).toEqual(['Demo', 'Acme', 'Nordic Crate Pool']);
    expect(appState.get().access.has('ApiOrganizationList')).toBe(true);
  });
});
