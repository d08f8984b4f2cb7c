/** Provides the "greeter" service; sorts last by name, so it loads first only by dependency. */
import { definePlugin } from '../../../../../src/plugin-api';

export interface GreeterApi {
  greet(name: string): string;
  /** plugins that had started when zeta's server() ran */
  startedBefore: string[];
}

declare module '../../../../../src/plugin-api' {
  interface PluginServices {
    greeter: GreeterApi;
  }
}

export const started: string[] = [];

export default definePlugin({
  id: 'zeta',
  provides: ['greeter'],
  server(ctx) {
    ctx.provide('greeter', { greet: (name) => `hello ${name}`, startedBefore: [...started] });
    started.push('zeta');
  },
});
