/** Depends on zeta and answers through its service. */
import { definePlugin } from '../../../../../src/plugin-api';
import { started } from '../../zeta/server';

export default definePlugin({
  id: 'alpha',
  dependsOn: ['zeta'],
  server(ctx) {
    started.push('alpha');
    const greeter = ctx.use('greeter');
    ctx.addCall({
      path: '/alpha/greet',
      handler: ({ body }) => ({ text: greeter.greet(String(body.name)), zetaFirst: !greeter.startedBefore.includes('alpha') }),
    });
  },
});
