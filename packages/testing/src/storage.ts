import { readdirSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BlobStore, RecordStore } from '@pinfold/core'

// Drivers load when a storage needs them, as `pinfold serve` loads them: a memory run imports none.

/**
 * Which storage the HTTP suites run on, from `PINFOLD_TEST_STORAGE`:
 * - `memory` (default): memory records and blobs;
 * - `embedded`: PGlite + filesystem blobs in a temporary data directory (the server's default);
 * - `postgres`: a real PostgreSQL server (`TEST_DATABASE_URL`, a fresh schema per server) + fs blobs;
 * - `s3`: blobs in an S3-compatible server (s3rver, started here) + records in PostgreSQL when
 *   `TEST_DATABASE_URL` is set, else PGlite.
 * CI runs packages/http and packages/server once per setup. The in-process harness (`test-api.ts`)
 * opens these stores from the adapters; `@pinfold/server`'s tests point `readConfig` at the same ones.
 */
export type TestStorage = 'memory' | 'embedded' | 'postgres' | 's3'
export const STORAGE = (process.env.PINFOLD_TEST_STORAGE ?? 'memory') as TestStorage

/** `TEST_DATABASE_URL` narrowed to a fresh schema of its own, so every test server starts empty. */
export async function freshSchema(url: string): Promise<string> {
  const schema = `http_${Math.random().toString(36).slice(2, 10)}`
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query(`create schema ${schema}`)
  await client.end()
  const withSchema = new URL(url)
  withSchema.searchParams.set('options', `-c search_path=${schema}`)
  return withSchema.toString()
}

export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

/** An s3rver on loopback with one bucket, and the server settings that point Pinfold at it. */
export async function startS3rver() {
  const [{ CreateBucketCommand, S3Client }, { default: S3rver }] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('s3rver'),
  ])
  const directory = await mkdtemp(join(tmpdir(), 'pinfold-http-s3-'))
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory })
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  // `pinfold serve`'s S3 client takes credentials from the AWS SDK's default chain, i.e. these variables
  process.env.AWS_ACCESS_KEY_ID = S3RVER_CREDENTIALS.accessKeyId
  process.env.AWS_SECRET_ACCESS_KEY = S3RVER_CREDENTIALS.secretAccessKey
  const bucket = 'pinfold-test'
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3RVER_CREDENTIALS })
  await client.send(new CreateBucketCommand({ Bucket: bucket }))
  client.destroy()
  return {
    directory,
    endpoint,
    bucket,
    env: {
      PINFOLD_S3_BUCKET: bucket,
      PINFOLD_S3_ENDPOINT: endpoint,
      PINFOLD_S3_REGION: 'us-east-1',
      PINFOLD_S3_FORCE_PATH_STYLE: 'true',
    },
    /** Objects in the bucket, counted in s3rver's directory. */
    countObjects: () => countFiles(join(directory, bucket), '._S3rver_object'),
    async close() {
      await server.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
}

export type S3rverInstance = Awaited<ReturnType<typeof startS3rver>>

/** Blobs of a filesystem blob store at `directory` (`createFsBlobStore`), sidecars included. */
export const countFsBlobs = (directory: string) => countFiles(join(directory, 'blobs'), '.blob')

/** Files under `directory` (recursively) whose names end with `suffix`; 0 when it does not exist. */
export function countFiles(directory: string, suffix = ''): number {
  let count = 0
  let entries: import('node:fs').Dirent[]
  try {
    entries = readdirSync(directory, { withFileTypes: true })
  } catch {
    return 0
  }
  for (const entry of entries) {
    if (entry.isDirectory()) count += countFiles(join(directory, entry.name), suffix)
    else if (entry.name.endsWith(suffix)) count++
  }
  return count
}

export interface OpenedStores {
  records: RecordStore
  blobs: BlobStore
  /** Blobs held, counted in the backend itself (sync, for assertions). */
  countBlobs(): number
  close(): Promise<void>
}

/**
 * Opens the record and blob stores of `storage` from the adapters, as `pinfold serve` wires them
 * (server/src/storage.ts): PGlite with pgvector in `<dataDir>/db`, blobs in `<dataDir>/blobs`, a
 * pg pool on a fresh schema, or S3 with plain (non aws-chunked) bodies. Migrations run first.
 */
export async function openStores(storage: TestStorage, dataDir: string): Promise<OpenedStores> {
  const closers: (() => Promise<unknown>)[] = []
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => {})
  }
  try {
    if (storage === 'memory') {
      const { createMemoryBlobStore, createMemoryRecordStore } = await import('@pinfold/adapter-memory')
      const blobs = createMemoryBlobStore()
      return { records: createMemoryRecordStore(), blobs, countBlobs: () => blobs.count, close }
    }
    const records = await openSqlRecords(storage, dataDir, closers)
    if (storage === 's3') {
      const s3 = await startS3rver()
      closers.push(s3.close)
      const s3Blobs = await s3BlobStore(s3)
      closers.push(s3Blobs.close)
      const blobs = s3Blobs.store
      return { records, blobs, countBlobs: s3.countObjects, close }
    }
    const { createFsBlobStore } = await import('@pinfold/adapter-fs')
    const directory = join(dataDir, 'blobs')
    return { records, blobs: createFsBlobStore({ directory }), countBlobs: () => countFsBlobs(directory), close }
  } catch (error) {
    await close()
    throw error
  }
}

/** A blob store in s3rver's bucket, with the S3 client the server builds (plain, non aws-chunked bodies). */
export async function s3BlobStore(s3: S3rverInstance): Promise<{ store: BlobStore; close(): Promise<void> }> {
  const [{ S3Client }, { createS3BlobStore }] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@pinfold/adapter-s3'),
  ])
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
    // as the server does: plain bodies, which S3-compatible servers without aws-chunked can store
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
  return { store: createS3BlobStore({ client, bucket: s3.bucket }), close: async () => client.destroy() }
}

async function openSqlRecords(
  storage: Exclude<TestStorage, 'memory'>,
  dataDir: string,
  closers: (() => Promise<unknown>)[],
): Promise<RecordStore> {
  const { createPostgresRecordStore, fromPGlite, fromPgPool, migrate } = await import('@pinfold/adapter-postgres')
  const url = process.env.TEST_DATABASE_URL
  if (storage === 'postgres' && !url) throw new Error('PINFOLD_TEST_STORAGE=postgres needs TEST_DATABASE_URL')
  if (storage !== 'embedded' && url) {
    const { default: pg } = await import('pg')
    const pool = new pg.Pool({ connectionString: await freshSchema(url) })
    pool.on('error', () => {})
    closers.push(() => pool.end())
    const client = fromPgPool(pool)
    await migrate(client)
    return createPostgresRecordStore({ client })
  }
  const [{ PGlite }, { vector }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite-pgvector'),
  ])
  const db = await PGlite.create(join(dataDir, 'db'), { extensions: { vector } })
  closers.push(() => db.close())
  const client = fromPGlite(db)
  await migrate(client)
  return createPostgresRecordStore({ client })
}
