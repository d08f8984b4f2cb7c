import { defineConsolePlugin } from '@rti/console/plugin-api';

/**
 * Scheduler: on the task-config list, "Run now" (runs the row at once and tells the outcome)
 * and "Runs" (the row's run history). Both load lazily with the list.
 */
export default defineConsolePlugin({
  id: 'scheduler',
  pages: [],
  rowActions: [
    { id: 'task-run-now', resources: ['task-config'], viewCode: 'ApiTaskConfigRun', width: 90, order: 0, component: () => import('./run-now-action') },
    {
      id: 'task-run-history',
      resources: ['task-config'],
      viewCode: 'ApiTaskConfigRunList',
      width: 70,
      order: 1,
      component: () => import('./run-history-action'),
    },
  ],
});
