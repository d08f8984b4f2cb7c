/**
 * Workers' MQTT client id (issue 22): without MQTT_CLIENT_ID it names the host as well as the
 * process — in containers every worker is pid 1, and two sessions with one id evict each other.
 */
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ingestConfigFromEnv } from '../src/config';

describe('MQTT client id', () => {
  it('defaults to the host and the process, and takes MQTT_CLIENT_ID as set', () => {
    expect(ingestConfigFromEnv({}, '/tmp/x').mqttClientId).toBe(`rti-ingest-${hostname()}-${process.pid}`);
    expect(ingestConfigFromEnv({ MQTT_CLIENT_ID: 'rti-ingest-1' }, '/tmp/x').mqttClientId).toBe('rti-ingest-1');
  });
});
