import { lazy, Suspense, type ComponentType } from 'react';

// Icons named in menu.json load one by one, only when a menu shows them.
const icons = import.meta.glob<{ default: ComponentType }>('../../../../node_modules/@ant-design/icons/es/icons/*.js');
const byName = new Map<string, () => Promise<{ default: ComponentType }>>();
for (const [path, load] of Object.entries(icons)) byName.set(path.slice(path.lastIndexOf('/') + 1, -3), load);

const made = new Map<string, ComponentType>();

export function MenuIcon({ name }: { name?: string }) {
  if (!name) return null;
  const load = byName.get(name);
  if (!load) return null;
  let Icon = made.get(name);
  if (!Icon) {
    Icon = lazy(load);
    made.set(name, Icon);
  }
  return (
    <Suspense fallback={<span className="anticon" />}>
      <Icon />
    </Suspense>
  );
}
