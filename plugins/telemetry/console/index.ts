import { defineConsolePlugin } from '@rti/console/plugin-api';

/**
 * Telemetry's console part: on the GPS device list and detail, "Send config" / "Resend"
 * (/device-gps/configure) per tracker; above the list, sending to every tracker whose
 * configuration is pending or failed at once, and the list following the trackers' answers
 * live (docs/TELEMETRY.md "GPS configuration"). On gateways: how to connect one (broker,
 * topics, test command) and generated MQTT passwords shown once ("Connecting a gateway").
 */
const CONFIGURE_CODE = 'ApiDeviceGpsConfigure';

export default defineConsolePlugin({
  id: 'telemetry',
  rowActions: [
    {
      id: 'gps-configure',
      resources: ['device-gps'],
      viewCode: CONFIGURE_CODE,
      width: 100,
      where: ['list', 'detail'],
      component: () => import('./configure-row-action'),
    },
  ],
  zones: {
    'device-gps.list.toolbar': { component: () => import('./configure-toolbar'), viewCode: CONFIGURE_CODE },
    // connecting gateways: broker, topics, test command; generated MQTT passwords shown once
    'device-master-gateway.show.before': { component: () => import('./gateway-connect'), viewCode: 'ApiDeviceMasterGatewayMqttInfo' },
    'device-slave-gateway.show.before': { component: () => import('./gateway-connect'), viewCode: 'ApiDeviceSlaveGatewayMqttInfo' },
    'device-master-gateway.list.toolbar': { component: () => import('./gateway-credentials-toolbar'), viewCode: 'ApiDeviceMasterGatewayMqttCredentials' },
    'device-slave-gateway.list.toolbar': { component: () => import('./gateway-credentials-toolbar'), viewCode: 'ApiDeviceSlaveGatewayMqttCredentials' },
  },
});
