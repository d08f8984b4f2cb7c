/**
 * Demo gateways' MQTT logins, derivable from the serial number so a simulator (or a person
 * with a real gateway) can connect without reading secrets anywhere: username = client id =
 * the serial in lower case, password = "Mqtt@" + serial (upper, lower and digits, SPEC §5).
 * The database holds only the hash (hashPassword, as for any mqttPassword written by the API).
 */
export const gatewayMqttUsername = (sn: string): string => sn.toLowerCase();
export const gatewayMqttClientId = (sn: string): string => `gw-${sn.toLowerCase()}`;
export const gatewayMqttPassword = (sn: string): string => `Mqtt@${sn}`;
