// A Pinfold server for benchmarks, run on the built packages (no TypeScript loader in the process,
// as in production): memory records, blobs from BENCH_BLOBS (`fs`, `memory`, or `s3` at BENCH_S3_ENDPOINT/BENCH_S3_BUCKET).
// Prints `{url, token}` as one JSON line once listening.
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService, createTokenVerifier, mintToken, SCOPES } from '@pinfold/core'
import { createFetchHandler } from '@pinfold/http'
import { createNodeHandler } from '@pinfold/http-node'
import { serveOnce } from './serve-once.mjs'

const secret = 'bench-secret-0123456789abcdef0123456789abcdef'
const kind = process.env.BENCH_BLOBS ?? 'fs'
const directory = await mkdtemp(join(process.env.BENCH_DIR ?? tmpdir(), 'pinfold-bench-'))

async function blobStore() {
  if (kind === 'memory') return createMemoryBlobStore()
  if (kind === 's3') {
    const { S3Client } = await import('@aws-sdk/client-s3')
    const { createS3BlobStore } = await import('@pinfold/adapter-s3')
    const client = new S3Client({
      endpoint: process.env.BENCH_S3_ENDPOINT,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    })
    return createS3BlobStore({ client, bucket: process.env.BENCH_S3_BUCKET })
  }
  const { createFsBlobStore } = await import('@pinfold/adapter-fs')
  return createFsBlobStore({ directory })
}

const service = createFileService({ records: createMemoryRecordStore(), blobs: await blobStore() })
const handler = createFetchHandler(service, {
  auth: createTokenVerifier({ secret }),
  // a 5xx in a benchmark is a finding: say what it was (the run's stderr is kept)
  onError: (error) => console.error('pinfold bench server: request failed', error),
})
const server = createServer(createNodeHandler(handler))
serveOnce(server, {
  token: () => mintToken(secret, { sub: 'bench', scopes: SCOPES, expiresIn: '1d' }),
  cleanup: () => rm(directory, { recursive: true, force: true }),
})
