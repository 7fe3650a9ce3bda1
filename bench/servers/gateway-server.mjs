// A Pinfold server for download and gateway benchmarks, run on the built packages: memory records,
// blobs from BENCH_BLOBS (`fs` or `memory`). With BENCH_COUNT_READS=1 the blob store is wrapped in
// a decorator that counts the bytes every `get` yields, and `GET /__bench/blob-reads` (answered
// before Pinfold sees the request) returns `{gets, bytes}` so far, so a benchmark can tell how much
// one request read.
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
  const { createFsBlobStore } = await import('@pinfold/adapter-fs')
  return createFsBlobStore({ directory })
}

const reads = { gets: 0, bytes: 0 }

/** The BlobStore port with every byte a `get` hands out counted; everything else passes through. */
function counting(store) {
  return new Proxy(store, {
    get(target, property) {
      if (property !== 'get') {
        const value = target[property]
        return typeof value === 'function' ? value.bind(target) : value
      }
      return async (key, options) => {
        const source = await target.get(key, options)
        reads.gets++
        return (async function* () {
          for await (const chunk of source) {
            reads.bytes += chunk.length
            yield chunk
          }
        })()
      }
    },
  })
}

const blobs = process.env.BENCH_COUNT_READS === '1' ? counting(await blobStore()) : await blobStore()
const service = createFileService({ records: createMemoryRecordStore(), blobs })
const pinfold = createNodeHandler(
  createFetchHandler(service, {
    auth: createTokenVerifier({ secret }),
    // a 5xx in a benchmark is a finding: say what it was (the run's stderr is kept)
    onError: (error) => console.error('pinfold bench server: request failed', error),
  }),
)
const server = createServer((req, res) => {
  if (req.url === '/__bench/blob-reads') {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(reads))
    return
  }
  pinfold(req, res)
})
serveOnce(server, {
  token: () => mintToken(secret, { sub: 'bench', scopes: SCOPES, expiresIn: '1d' }),
  cleanup: () => rm(directory, { recursive: true, force: true }),
})
