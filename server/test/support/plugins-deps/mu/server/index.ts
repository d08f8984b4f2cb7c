/** Uses zeta when it is there (optional dependency). */
import { definePlugin } from '../../../../../src/plugin-api';
import { started } from '../../zeta/server';

export default definePlugin({
  id: 'mu',
  optionalDependsOn: ['zeta'],
  server(ctx) {
    started.push('mu');
    ctx.addCall({ path: '/mu/greet', handler: () => ({ text: ctx.tryUse('greeter')?.greet('mu') ?? 'none' }) });
  },
});
