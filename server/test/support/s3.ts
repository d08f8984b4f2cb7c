/**
 * A real S3-speaking server for the storage tests: s3rver (npm) in its own process on a free
 * port, started and stopped by the tests (scripts/lib/services.mjs).
 */
// @ts-expect-error plain ESM helper shared with scripts/ (no declaration file, as in ingest/test)
import * as services from '../../../scripts/lib/services.mjs';
import type { StorageConfig } from '../../src/files/storage';

export interface RunningS3 {
  url: string;
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  dir: string;
  pid(): number | undefined;
  /** starts the process again on the same port and data */
  start(): Promise<void>;
  /** stops the process; objects kept */
  stop(): Promise<void>;
  cleanup(): Promise<void>;
}

export const startS3rver = (services as { startS3rver(): Promise<RunningS3> }).startS3rver;

/** The server's storage setting for a bucket on this S3 server. */
export const s3Storage = (s3: RunningS3, bucket: string, prefix = ''): StorageConfig => ({
  kind: 's3',
  bucket,
  prefix,
  endpoint: s3.endpoint,
  region: 'us-east-1',
  forcePathStyle: true,
  accessKeyId: s3.accessKeyId,
  secretAccessKey: s3.secretAccessKey,
});
