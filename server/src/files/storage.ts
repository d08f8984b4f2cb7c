/**
 * Where stored files live (issue 22): uploads, their thumbnails and sidecars, report
 * workbooks and the files of running imports go through one interface with two implementations —
 *
 * - the local folder (default, unchanged for `npm start`): `<DATA_DIR>/<key>`;
 * - S3-compatible object storage through the official AWS SDK v3 when `STORAGE_URL=s3://bucket[/prefix]`
 *   (`S3_ENDPOINT`, `S3_REGION`, `S3_FORCE_PATH_STYLE` for MinIO/Ceph/s3rver, credentials
 *   from `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY` or the SDK's default chain).
 *
 * Keys always carry the organisation: `<area>/<orgId>/<name>`, built and checked by
 * `objectKey` (a fixed area, an integer organisation, a plain name), and every implementation
 * refuses any other key — a forged file name cannot reach another organisation's objects.
 *
 * Files are received into this instance's own temporary folder first (never swept by another
 * instance: temporary names carry the instance id) and stored whole once checked: a store
 * that is down or refuses fails with `StorageUnavailable` (the calls answer 503 in the
 * caller's language) and nothing half-written is ever served — an S3 PUT is atomic and the
 * main object is written last.
 */
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';

export type StorageArea = 'uploads' | 'reports' | 'imports';
const AREAS: readonly StorageArea[] = ['uploads', 'reports', 'imports'];
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
const KEY = /^(uploads|reports|imports)\/(0|[1-9][0-9]{0,9})\/([A-Za-z0-9][A-Za-z0-9._-]{0,199})$/;

/** A stored object's key: the area, the owning organisation (0 = none), a plain name. */
export function objectKey(area: StorageArea, orgId: number | null, name: string): string {
  const org = orgId ?? 0;
  if (!AREAS.includes(area) || !Number.isSafeInteger(org) || org < 0 || !NAME.test(name) || name.includes('..'))
    throw new Error(`not a storage key: ${area}/${org}/${name}`);
  return `${area}/${org}/${name}`;
}

/** The organisation a key belongs to, or null when it is not a key this storage accepts. */
export function keyOrg(key: string): number | null {
  const m = KEY.exec(key);
  return m && !m[3].includes('..') ? Number(m[2]) : null;
}

function checked(key: string): string {
  if (keyOrg(key) === null) throw new Error(`refused storage key "${key}"`);
  return key;
}

/** The store is down or refused the request: the caller answers 503, nothing is kept. */
export class StorageUnavailable extends Error {
  constructor(
    readonly operation: string,
    cause: unknown,
  ) {
    super(`object storage ${operation} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

export interface StoredObject {
  body: Readable;
  size: number;
}

export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  /** where this instance receives files before storing them under `area` for `orgId` */
  tempDir(area: StorageArea, orgId: number | null): string;
  /** stores a finished local file under key; the local file is gone afterwards (moved or uploaded and removed) */
  putFile(key: string, path: string, contentType?: string): Promise<void>;
  putBuffer(key: string, data: Buffer, contentType?: string): Promise<void>;
  /** null when no such object */
  get(key: string): Promise<StoredObject | null>;
  getBuffer(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
  /** where an object lives, for people: the file's path, or s3://bucket/key */
  locate(key: string): string;
  /** start-up: the bucket exists (created when missing) */
  init(): Promise<void>;
  close(): void;
}

export interface S3StorageConfig {
  bucket: string;
  /** key prefix inside the bucket ("" = none) */
  prefix: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
}

export type StorageConfig = { kind: 'local' } | ({ kind: 's3' } & S3StorageConfig);

/** STORAGE_URL and the S3 settings (docs/SERVER.md "Running on several machines"). */
export function storageConfigFromEnv(env: NodeJS.ProcessEnv): StorageConfig {
  const url = env.STORAGE_URL ?? '';
  if (url === '' || url === 'local') return { kind: 'local' };
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/([A-Za-z0-9._/-]*))?$/.exec(url);
  if (!m) throw new Error(`STORAGE_URL must be s3://bucket[/prefix] or empty (the data folder), got "${url}"`);
  const path = env.S3_FORCE_PATH_STYLE ?? '';
  if (!['', 'true', 'false'].includes(path)) throw new Error(`S3_FORCE_PATH_STYLE must be true or false, got "${path}"`);
  return {
    kind: 's3',
    bucket: m[1],
    prefix: (m[2] ?? '').replace(/^\/+|\/+$/g, ''),
    endpoint: env.S3_ENDPOINT || undefined,
    region: env.S3_REGION || env.AWS_REGION || 'us-east-1',
    forcePathStyle: path === 'true',
    accessKeyId: env.AWS_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.AWS_SECRET_ACCESS_KEY || undefined,
  };
}

export function createStorage(config: StorageConfig, dataDir: string): ObjectStorage {
  return config.kind === 's3' ? new S3Storage(config, dataDir) : new LocalStorage(dataDir);
}

/** The data folder: `<dataDir>/<key>`, the layout of every version before. */
export class LocalStorage implements ObjectStorage {
  readonly kind = 'local';
  constructor(private readonly root: string) {}

  private path(key: string): string {
    return join(this.root, checked(key));
  }

  tempDir(area: StorageArea, orgId: number | null): string {
    // next to the destination, so storing is a rename
    return join(this.root, area, String(orgId ?? 0));
  }

  async putFile(key: string, path: string): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    try {
      await rename(path, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await copyFile(path, `${target}.part`);
      await rename(`${target}.part`, target);
      await unlink(path).catch(() => undefined);
    }
  }

  async putBuffer(key: string, data: Buffer): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, data);
  }

  async get(key: string): Promise<StoredObject | null> {
    const path = this.path(key);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return null;
    return { body: createReadStream(path), size: info.size };
  }

  getBuffer(key: string): Promise<Buffer | null> {
    return readFile(this.path(key)).catch(() => null);
  }

  async delete(key: string): Promise<void> {
    await unlink(this.path(key)).catch(() => undefined);
  }

  locate(key: string): string {
    return this.path(key);
  }

  async init(): Promise<void> {}
  close(): void {}
}

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

/** S3-compatible object storage through @aws-sdk/client-s3. */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3';
  private readonly client: S3Client;
  /** the bucket is known to exist (init succeeded); until then every write checks it first */
  private bucketReady = false;

  constructor(
    private readonly config: S3StorageConfig,
    private readonly dataDir: string,
  ) {
    const options: S3ClientConfig = {
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      // a store that is down answers the caller within seconds, not after the SDK's back-off
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 3_000, requestTimeout: 30_000 },
      // plain PUT/GET only: S3-compatible servers (MinIO, Ceph, s3rver) need no flexible checksums
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
    if (config.accessKeyId && config.secretAccessKey) options.credentials = { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey };
    this.client = new S3Client(options);
  }

  private key(key: string): string {
    checked(key);
    return this.config.prefix ? `${this.config.prefix}/${key}` : key;
  }

  tempDir(area: StorageArea): string {
    // this instance's own folder: the object store holds only finished objects
    return join(this.dataDir, 'tmp', area);
  }

  private async send<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw new StorageUnavailable(operation, err);
    }
  }

  /** A store that was down at start (or a bucket created since): checked again before a write. */
  private async ensureBucket(): Promise<void> {
    if (!this.bucketReady) await this.init();
  }

  async putFile(key: string, path: string, contentType?: string): Promise<void> {
    const Key = this.key(key);
    try {
      await this.ensureBucket();
      const { size } = await stat(path);
      await this.send('put', () =>
        this.client.send(
          new PutObjectCommand({ Bucket: this.config.bucket, Key, Body: createReadStream(path), ContentLength: size, ContentType: contentType }),
        ),
      );
    } finally {
      await unlink(path).catch(() => undefined);
    }
  }

  async putBuffer(key: string, data: Buffer, contentType?: string): Promise<void> {
    const Key = this.key(key);
    await this.ensureBucket();
    await this.send('put', () =>
      this.client.send(new PutObjectCommand({ Bucket: this.config.bucket, Key, Body: data, ContentLength: data.length, ContentType: contentType })),
    );
  }

  async get(key: string): Promise<StoredObject | null> {
    const Key = this.key(key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key }));
      return { body: out.Body as Readable, size: Number(out.ContentLength ?? 0) };
    } catch (err) {
      if (notFound(err)) return null;
      throw new StorageUnavailable('get', err);
    }
  }

  async getBuffer(key: string): Promise<Buffer | null> {
    const got = await this.get(key);
    if (!got) return null;
    const chunks: Buffer[] = [];
    for await (const c of got.body) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }

  async delete(key: string): Promise<void> {
    const Key = this.key(key);
    await this.send('delete', () => this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key })));
  }

  locate(key: string): string {
    return `s3://${this.config.bucket}/${this.key(key)}`;
  }

  async init(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.config.bucket }));
      this.bucketReady = true;
    } catch (err) {
      // credentials that may write objects but not look at the bucket: it is there
      if ((err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 403) return void (this.bucketReady = true);
      if (!notFound(err)) throw new StorageUnavailable(`bucket ${this.config.bucket}`, err);
      await this.send(`create bucket ${this.config.bucket}`, () => this.client.send(new CreateBucketCommand({ Bucket: this.config.bucket }))).catch((e) => {
        const name = ((e as StorageUnavailable).cause as { name?: string })?.name;
        if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw e;
      });
      this.bucketReady = true;
    }
  }

  close(): void {
    this.client.destroy();
  }
}
