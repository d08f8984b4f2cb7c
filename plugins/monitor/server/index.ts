/**
 * Monitor plugin, server side: the GPS alert report (its list, export and the "GPS alert
 * mail" scheduler task type) over the alert rows the telemetry rules raise. The alert screens
 * themselves are the console side (../console).
 */
import { definePlugin } from '@rti/server/plugin-api';
import { defineGpsAlertReport } from './gps-alert-report';

export default definePlugin({
  id: 'monitor',
  server(ctx) {
    defineGpsAlertReport(ctx);
  },
});
