import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { PluginDefinition } from '../src/plugin-api';
import { discoverPlugins, orderPlugins, ServiceRegistry } from '../src/plugins/host';
import { startTestServer, type TestServer } from './support/test-server';

const pluginsDir = fileURLToPath(new URL('./support/plugins-deps', import.meta.url));
const def = (id: string, extra: Partial<PluginDefinition> = {}): PluginDefinition => ({ id, ...extra });
let ts: TestServer | undefined;
afterEach(async () => {
  await ts?.close();
  ts = undefined;
});

describe('plugin dependencies', () => {
  it('orders dependencies first, otherwise by id', () => {
    const order = orderPlugins([
      def('alpha', { dependsOn: ['zeta'] }),
      def('zeta', { dependsOn: ['mu'] }),
      def('mu'),
      def('beta', { optionalDependsOn: ['zeta', 'absent'] }),
    ]);
    expect(order.map((d) => d.id)).toEqual(['mu', 'zeta', 'alpha', 'beta']);
  });

  it('stops on a missing dependency, naming both plugins', () => {
    expect(() => orderPlugins([def('vehicle', { dependsOn: ['telemetry', 'map'] }), def('map')])).toThrow(
      'plugin dependencies missing (not installed or not loaded): "vehicle" depends on "telemetry"',
    );
  });

  it('stops on a cycle, naming its path', () => {
    expect(() => orderPlugins([def('a', { dependsOn: ['b'] }), def('b', { dependsOn: ['c'] }), def('c', { optionalDependsOn: ['a'] })])).toThrow(
      'plugin dependency cycle: "a" → "b" → "c" → "a"',
    );
    expect(() => orderPlugins([def('self', { dependsOn: ['self'] })])).toThrow('plugin dependency cycle: "self" → "self"');
  });

  it('gives a service only to its plugin and the plugins declaring it', () => {
    const provider = def('zeta', { provides: ['greeter' as never] });
    const user = def('alpha', { dependsOn: ['zeta'] });
    const sneaky = def('sneaky');
    const reg = new ServiceRegistry([provider, user, sneaky]);
    expect(() => reg.checkProvided(provider)).toThrow('plugin "zeta" declares provides "greeter" but did not call ctx.provide() for it');
    expect(() => reg.provide('alpha', 'greeter', {})).toThrow('plugin "alpha" provides "greeter" without declaring it in provides');
    reg.provide('zeta', 'greeter', { ok: true });
    expect(reg.find(user, 'greeter')).toEqual({ ok: true });
    expect(() => reg.find(sneaky, 'greeter')).toThrow(
      'plugin "sneaky" uses the service "greeter" of plugin "zeta" without declaring "zeta" in dependsOn or optionalDependsOn',
    );
    expect(() => new ServiceRegistry([provider, def('other', { provides: ['greeter' as never] })])).toThrow(
      'plugins "zeta" and "other" both provide the service "greeter"',
    );
  });

  it('starts providers first and serves their typed service to dependants', async () => {
    ts = await startTestServer({ plugins: true, config: { pluginsDir } });
    expect(ts.server.plugins.map((p) => p.id)).toEqual(['zeta', 'alpha', 'mu']);
    expect((await ts.a.call('/alpha/greet', { name: 'x' })).body.data).toEqual({ text: 'hello x', zetaFirst: true });
    expect((await ts.a.call('/mu/greet', {})).body.data).toEqual({ text: 'hello mu' });
    expect(ts.server.service('greeter' as never)).toBeDefined();
  });

  it('refuses to start without a required dependency; an optional one may be absent', async () => {
    await expect(startTestServer({ plugins: ['alpha'], config: { pluginsDir } })).rejects.toThrow('"alpha" depends on "zeta"');
    ts = await startTestServer({ plugins: ['mu'], config: { pluginsDir } });
    expect((await ts.a.call('/mu/greet', {})).body).toMatchObject({ code: 0, data: { text: 'none' } });
  });

  it('the product plugins load in dependency order', async () => {
    const found = discoverPlugins(fileURLToPath(new URL('../../plugins', import.meta.url)));
    const defs = await Promise.all(found.map(async (p) => ((await import(pathToFileURL(p.entry).href)) as { default: PluginDefinition }).default));
    const order = orderPlugins(defs).map((d) => d.id);
    expect(order.indexOf('telemetry')).toBeLessThan(order.indexOf('map'));
    expect(order.indexOf('map')).toBeLessThan(order.indexOf('vehicle'));
    expect(order.indexOf('telemetry')).toBeLessThan(order.indexOf('scheduler'));
  });
});
