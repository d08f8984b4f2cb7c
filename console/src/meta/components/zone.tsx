/**
 * A named zone of a generated screen (`<resource>.show.after`, …): renders the components plugins
 * registered for it (plugin API `zones`), each lazily, in its own Suspense and error boundary so
 * a failing panel never takes the screen down. Nothing is rendered when no plugin fills the zone.
 */
import { Alert } from 'antd';
import { Component, lazy, Suspense, useMemo, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { errorLog } from '../../lib/error-log';
import { zoneEntries, type AnyZoneComponent } from '../../lib/zones';
import { useOptionalShell } from '../../providers/shell-context';

// one lazy component per loader for the life of the page, so a zone never re-suspends
const lazyOf = new Map<AnyZoneComponent, LazyExoticComponent<ComponentType<object>>>();

export interface ZoneComponent<P> {
  key: string;
  Component: LazyExoticComponent<ComponentType<P>>;
}

/** The components filling `zone` for the signed-in user and this record (empty outside the console shell). */
export function useZone<P>(zone: string, record?: Record<string, unknown>): Array<ZoneComponent<P>> {
  const shell = useOptionalShell();
  const plugins = shell?.plugins;
  const access = shell?.access;
  return useMemo(
    () =>
      zoneEntries(plugins ?? [], zone, (code) => Boolean(access?.has(code)), record).map((e) => {
        let C = lazyOf.get(e.component);
        if (!C) lazyOf.set(e.component, (C = lazy(e.component)));
        return { key: e.key, Component: C as unknown as LazyExoticComponent<ComponentType<P>> };
      }),
    [plugins, access, zone, record],
  );
}

class ZoneBoundary extends Component<{ name: string; children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override componentDidCatch(error: Error): void {
    errorLog.push('js', `${this.props.name}: ${error.message}`, error.stack);
  }
  override render() {
    return this.state.error ? <Alert type="error" showIcon message={this.state.error.message} /> : this.props.children;
  }
}

/** Renders the zone's components with `props`; `wrap` frames them when there is at least one. */
export function Zone<P extends object>({
  name,
  components,
  props,
  wrap,
}: {
  name: string;
  components: Array<ZoneComponent<P>>;
  props: P;
  wrap?: (children: ReactNode) => ReactNode;
}) {
  if (!components.length) return null;
  const body = components.map(({ key, Component: C }) => (
    <ZoneBoundary key={key} name={name}>
      <Suspense fallback={null}>
        <C {...props} />
      </Suspense>
    </ZoneBoundary>
  ));
  return <div data-zone={name}>{wrap ? wrap(body) : body}</div>;
}
