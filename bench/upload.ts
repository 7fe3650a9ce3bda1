/**
 * Upload throughput and server memory: a file streamed over loopback HTTP (curl) into a server
 * process, as a ratio to streaming SHA-256 and to the UnixFS importer alone over the same file,
 * both measured in this run, and to the floor of this machine: the same curl upload into a server
 * that only parses the multipart body and hashes the file (`servers/multipart-hash-sink.mjs`).
 */
import { createReadStream } from 'node:fs'
import { computeFileCid } from '@pinfold/core'
import { benchFile } from './lib/bench-file.js'
import { curlUpload } from './lib/curl.js'
import { peakRssMb, startBenchServer } from './lib/process.js'
import { startBenchS3 } from './lib/s3.js'
import { sha256File } from './lib/sha256-file.js'

export interface UploadFigures {
  store: string
  sizeMiB: number
  uploadMBps: number
  sha256MBps: number
  importerMBps: number
  floorMBps: number
  ratioToSha256: number
  ratioToFloor: number
  overheadVsImporter: number
  serverPeakRssMb: number
}

const MB = 1e6
const read = (path: string) => createReadStream(path, { highWaterMark: 1024 * 1024 })

function since(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9
}

/** The same upload into a server that parses and hashes it and does nothing else. */
async function floorMBps(path: string, size: number, expectedSha256: string): Promise<number> {
  const sink = await startBenchServer('multipart-hash-sink.mjs')
  try {
    const res = await curlUpload(sink.url, sink.token, path)
    const answer = res.body as { sha256?: string }
    if (answer.sha256 !== expectedSha256) throw new Error(`the hash sink answered ${JSON.stringify(answer)}`)
    return size / MB / res.seconds
  } finally {
    await sink.stop()
  }
}

async function importerMBps(path: string, size: number): Promise<number> {
  const start = process.hrtime.bigint()
  await computeFileCid(read(path), 'v1')
  return size / MB / since(start)
}

export async function benchUpload(store: 'fs' | 's3', size: number): Promise<UploadFigures> {
  const path = await benchFile(size)
  const s3 = store === 's3' ? await startBenchS3() : undefined
  const server = await startBenchServer('upload-server.mjs', { BENCH_BLOBS: store, ...s3?.env })
  try {
    const sha = await sha256File(path, size)
    const importer = await importerMBps(path, size)
    const floor = await floorMBps(path, size, sha.hex)
    const res = await curlUpload(server.url, server.token, path, { network: 'public' })
    if (res.status !== 200) throw new Error(`upload failed: ${JSON.stringify(res.body)}`)
    const upload = size / MB / res.seconds
    return {
      store,
      sizeMiB: size / 1024 / 1024,
      uploadMBps: upload,
      sha256MBps: sha.MBps,
      importerMBps: importer,
      floorMBps: floor,
      ratioToSha256: upload / sha.MBps,
      ratioToFloor: upload / floor,
      overheadVsImporter: importer / upload,
      serverPeakRssMb: peakRssMb(server.pid),
    }
  } finally {
    await server.stop()
    await s3?.close()
  }
}

export function uploadTable(rows: UploadFigures[]): string {
  const fixed = (n: number, digits = 0) => n.toFixed(digits)
  return [
    '| store | size | upload MB/s | SHA-256 MB/s | importer MB/s | floor MB/s (parse + hash only) | upload ÷ SHA-256 (target ≥ 0.5) | floor ÷ SHA-256 | upload ÷ floor | importer ÷ upload (target ≤ 1.5) | server peak RSS MB (target ≤ 200) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.store} | ${r.sizeMiB} MiB | ${fixed(r.uploadMBps)} | ${fixed(r.sha256MBps)} | ${fixed(r.importerMBps)} | ${fixed(r.floorMBps)} | ${fixed(r.ratioToSha256, 2)} | ${fixed(r.floorMBps / r.sha256MBps, 2)} | ${fixed(r.ratioToFloor, 2)} | ${fixed(r.overheadVsImporter, 2)} | ${fixed(r.serverPeakRssMb)} |`,
    ),
  ].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = (process.env.BENCH_UPLOAD_MIB ?? '1024').split(',').map((mib) => Number(mib) * 1024 * 1024)
  const rows: UploadFigures[] = []
  const stores = (process.env.BENCH_UPLOAD_STORES ?? 'fs,s3').split(',') as ('fs' | 's3')[]
  for (const store of stores) for (const size of sizes) rows.push(await benchUpload(store, size))
  console.log(uploadTable(rows))
}
