// A picker of a resource the user may not list (an operator's project form: its visible-users
// field picks users, the System group's): the field shows its value, is disabled and says which
// permission it needs, and asks the server nothing — before, the form's first render called
// /user/list and got a 403 (the operator walk of first-hour.e2e.ts).
import { act } from 'react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceDef } from '@rti/metadata/browser';
import { RefsInput } from '../src/meta/components/refs-input';
import { RefSelect } from '../src/meta/components/ref-select';
import { cleanup, fakeData, initTestI18n, metaOf, mount, settle } from './support/render';

const user = { name: 'user', route: '/u', titleField: 'realName', fields: [{ name: 'realName', type: 'string' }] } as unknown as ResourceDef;
const project = {
  name: 'project',
  route: '/p',
  titleField: 'name',
  fields: [
    { name: 'name', type: 'string' },
    { name: 'visibleUserIds', type: 'refs', ref: { resource: 'user', label: 'realName' } },
    { name: 'ownerId', type: 'ref', ref: { resource: 'user', label: 'realName' } },
  ],
} as unknown as ResourceDef;
const meta = metaOf(user, project);
const users = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, realName: `User ${i + 1}` }));

async function render(element: React.ReactNode, denied: string[]) {
  const data = fakeData({ user: users });
  const { host } = await mount({ path: '/p/create', meta, dataProvider: data.provider, denied, element });
  await settle();
  await act(async () => host.querySelector('input')?.focus());
  await settle(400);
  return { host, data };
}
const select = (host: HTMLElement) => host.querySelector('.ant-select')!;

beforeAll(() => initTestI18n({ 'en-US': { resources: { user: 'User' } }, 'zh-CN': { resources: { user: '用户' } } }));
afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en-US');
});

describe('a picker of a resource the user may not list', () => {
  it('refs: disabled, keeps the chosen labels, names the permission, calls nothing', async () => {
    const { host, data } = await render(<RefsInput field={project.fields[1]} value={[7]} knownLabels={{ 7: 'User 7' }} />, ['list']);
    expect(data.of('getList', 'user')).toEqual([]);
    expect(select(host).classList.contains('ant-select-disabled')).toBe(true);
    expect(select(host).getAttribute('title')).toBe('Needs permission for the user list');
    expect(host.textContent).toContain('User 7');
    // no modal picker either (it would list users)
    expect(host.querySelector('[data-testid="refs-picker-visibleUserIds"]')).toBeNull();
  });

  it('ref: the same in the user language', async () => {
    await i18n.changeLanguage('zh-CN');
    const { host, data } = await render(<RefSelect field={project.fields[2]} value={3} knownLabels={{ 3: 'User 3' }} />, ['list']);
    expect(data.of('getList', 'user')).toEqual([]);
    expect(select(host).classList.contains('ant-select-disabled')).toBe(true);
    expect(select(host).getAttribute('title')).toBe('需要用户列表的权限');
    expect(host.textContent).toContain('User 3');
  });

  it('with the permission the picker lists as before (and a large target offers the modal picker)', async () => {
    const { host, data } = await render(<RefsInput field={project.fields[1]} value={[]} />, []);
    expect(data.of('getList', 'user').length).toBeGreaterThan(0);
    expect(select(host).classList.contains('ant-select-disabled')).toBe(false);
    expect(host.querySelector('[data-testid="refs-picker-visibleUserIds"]')).not.toBeNull();
  });
});
