/**
 * Upload throughput and server memory: a file streamed over loopback HTTP into a server process,
 * as a ratio to streaming SHA-256 and to the UnixFS importer alone over the same bytes, in this run.
 */
import { createHash } from 'node:crypto'
import { computeFileCid } from '@pinfold/core'
import { benchBytes } from './lib/bytes.js'
import { uploadMultipart } from './lib/multipart.js'
import { peakRssMb, startBenchServer } from './lib/process.js'

export interface UploadFigures {
  store: string
  sizeMiB: number
  uploadMBps: number
  sha256MBps: number
  importerMBps: number
  ratioToSha256: number
  overheadVsImporter: number
  serverPeakRssMb: number
}

const MB = 1e6

function seconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9
}

export async function measureSha256(size: number): Promise<number> {
  const start = process.hrtime.bigint()
  const hash = createHash('sha256')
  for (const chunk of benchBytes(size)) hash.update(chunk)
  hash.digest()
  return size / MB / seconds(start)
}

export async function measureImporter(size: number): Promise<number> {
  const start = process.hrtime.bigint()
  await computeFileCid(
    (async function* () {
      yield* benchBytes(size)
    })(),
    'v1',
  )
  return size / MB / seconds(start)
}

export async function benchUpload(store: 'fs' | 'memory', size: number): Promise<UploadFigures> {
  const server = await startBenchServer('upload-server.ts', { BENCH_BLOBS: store })
  try {
    const sha256MBps = await measureSha256(size)
    const importerMBps = await measureImporter(size)
    const start = process.hrtime.bigint()
    const res = await uploadMultipart(server.url, server.token, benchBytes(size), { network: 'public' })
    const uploadMBps = size / MB / seconds(start)
    if (res.status !== 200) throw new Error(`upload failed: ${JSON.stringify(res.body)}`)
    const peak = peakRssMb(server.pid)
    return {
      store,
      sizeMiB: size / 1024 / 1024,
      uploadMBps,
      sha256MBps,
      importerMBps,
      ratioToSha256: uploadMBps / sha256MBps,
      overheadVsImporter: importerMBps / uploadMBps,
      serverPeakRssMb: peak,
    }
  } finally {
    await server.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const size = Number(process.env.BENCH_UPLOAD_MIB ?? 1024) * 1024 * 1024
  const store = (process.env.BENCH_BLOBS as 'fs' | 'memory' | undefined) ?? 'fs'
  console.log(await benchUpload(store, size))
}
