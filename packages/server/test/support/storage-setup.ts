import { readdirSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3'
import type { MemoryBlobStore } from '@pinfold/adapter-memory'
import type { BlobStore } from '@pinfold/core'
import pg from 'pg'
import S3rver from 's3rver'

/**
 * Which storage the HTTP suite runs on, from `PINFOLD_TEST_STORAGE`:
 * - `memory` (default): memory records and blobs;
 * - `embedded`: PGlite + filesystem blobs in a temporary data directory (the server's default);
 * - `postgres`: a real PostgreSQL server (`TEST_DATABASE_URL`, a fresh schema per server) + fs blobs;
 * - `s3`: blobs in an S3-compatible server (s3rver, started here) + records in PostgreSQL when
 *   `TEST_DATABASE_URL` is set, else PGlite.
 * CI runs the suite once per setup.
 */
export const STORAGE = (process.env.PINFOLD_TEST_STORAGE ?? 'memory') as 'memory' | 'embedded' | 'postgres' | 's3'

export interface PreparedStorage {
  env: Record<string, string>
  /** Blobs held by the server's store, counted in the backend itself (sync, for assertions). */
  countBlobs(blobs: BlobStore, dataDir: string): number
  close(): Promise<void>
}

export async function prepareStorage(): Promise<PreparedStorage> {
  if (STORAGE === 'memory') {
    return {
      env: { PINFOLD_STORAGE: 'memory' },
      countBlobs: (blobs) => (blobs as MemoryBlobStore).count,
      close: async () => {},
    }
  }
  const fsBlobs = (_: BlobStore, dataDir: string) => countFiles(join(dataDir, 'blobs', 'blobs'), '.blob')
  if (STORAGE === 'embedded')
    return { env: { PINFOLD_STORAGE: 'embedded' }, countBlobs: fsBlobs, close: async () => {} }
  const database: Record<string, string> = process.env.TEST_DATABASE_URL
    ? { DATABASE_URL: await freshSchema(process.env.TEST_DATABASE_URL) }
    : {}
  if (STORAGE === 'postgres') {
    if (!process.env.TEST_DATABASE_URL) throw new Error('PINFOLD_TEST_STORAGE=postgres needs TEST_DATABASE_URL')
    return { env: { PINFOLD_STORAGE: 'embedded', ...database }, countBlobs: fsBlobs, close: async () => {} }
  }
  const s3 = await startS3rver()
  return {
    env: { PINFOLD_STORAGE: 'embedded', ...database, ...s3.env },
    countBlobs: () => countFiles(join(s3.directory, s3.env.PINFOLD_S3_BUCKET), '._S3rver_object'),
    close: s3.close,
  }
}

async function freshSchema(url: string): Promise<string> {
  const schema = `http_${Math.random().toString(36).slice(2, 10)}`
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query(`create schema ${schema}`)
  await client.end()
  const withSchema = new URL(url)
  withSchema.searchParams.set('options', `-c search_path=${schema}`)
  return withSchema.toString()
}

/** An s3rver on loopback with one bucket, and the server settings that point Pinfold at it. */
export async function startS3rver() {
  const directory = await mkdtemp(join(tmpdir(), 'pinfold-http-s3-'))
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory })
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  // the server's S3 client takes credentials from the AWS SDK's default chain, i.e. these variables
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER'
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER'
  const bucket = 'pinfold-test'
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  })
  await client.send(new CreateBucketCommand({ Bucket: bucket }))
  client.destroy()
  return {
    directory,
    env: {
      PINFOLD_S3_BUCKET: bucket,
      PINFOLD_S3_ENDPOINT: endpoint,
      PINFOLD_S3_REGION: 'us-east-1',
      PINFOLD_S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
}

function countFiles(directory: string, suffix: string): number {
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
