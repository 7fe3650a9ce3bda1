/**
 * Resumable (tus) uploads against single-request uploads of the same file into the same server,
 * alternating in one run: the tus upload is shaped as the official SDK sends it (a creation
 * request, then PATCHes of 52,428,801 bytes streamed from disk), the single request is curl's
 * multipart upload. Reports tus ÷ single request (goal ≥ 0.9), the completing PATCH's time beside
 * what its bytes alone take at the upload's pace (goal: ≤ 1 s, independent of size), and the
 * server's RSS growth (peak minus idle; goal ≤ 100 MB), on the filesystem and on S3 (s3rver).
 *
 * `BENCH_TUS_BASELINE=/path/to/other/checkout` (built) runs its server too, alternately, for
 * before/after figures measured in the same run.
 */
import { createReadStream } from 'node:fs'
import { request } from 'node:http'
import { loadavg } from 'node:os'
import { benchFile } from './lib/bench-file.js'
import { type BenchBuild, buildsToCompare } from './lib/builds.js'
import { curlUpload } from './lib/curl.js'
import { peakRssMb, rssMb, startBenchServer } from './lib/process.js'
import { startBenchS3 } from './lib/s3.js'

const CHUNK = 52_428_801
const MB = 1e6

function since(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9
}

function send(
  url: string,
  method: string,
  headers: Record<string, string | number>,
  body?: NodeJS.ReadableStream,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }))
    })
    req.on('error', reject)
    if (body) body.pipe(req)
    else req.end()
  })
}

interface Run {
  seconds: number
  rssGrowthMb: number
  /** tus only: the completing PATCH, and the median of the others (bytes per second). */
  lastPatchSeconds?: number
  lastPatchBytes?: number
  patchMBps?: number
}

async function tusUpload(url: string, token: string, path: string, size: number) {
  const start = process.hrtime.bigint()
  const auth = { authorization: `Bearer ${token}` }
  const filename = Buffer.from('bench.bin').toString('base64')
  const created = await send(`${url}/v3/files`, 'POST', {
    ...auth,
    'upload-length': size,
    'upload-metadata': `filename ${filename},network ${Buffer.from('public').toString('base64')}`,
  })
  const location = created.headers.location as string
  if (created.status !== 201 || !location) throw new Error(`tus creation failed with ${created.status}`)
  let cid: string | undefined
  const rates: number[] = []
  let last = { seconds: 0, bytes: 0 }
  for (let offset = 0; offset < size; offset += CHUNK) {
    const end = Math.min(size, offset + CHUNK)
    const patchStart = process.hrtime.bigint()
    const res = await send(
      location,
      'PATCH',
      {
        ...auth,
        'content-type': 'application/offset+octet-stream',
        'upload-offset': offset,
        'content-length': end - offset,
      },
      createReadStream(path, { start: offset, end: end - 1, highWaterMark: 1024 * 1024 }),
    )
    if (res.status !== 204) throw new Error(`PATCH at ${offset} answered ${res.status}`)
    last = { seconds: since(patchStart), bytes: end - offset }
    if (end < size) rates.push(last.bytes / last.seconds)
    cid = res.headers['upload-cid'] as string | undefined
  }
  if (!cid) throw new Error('the last PATCH carried no upload-cid')
  rates.sort((a, b) => a - b)
  return { seconds: since(start), cid, last, patchMBps: (rates[rates.length >> 1] ?? 0) / MB }
}

async function oneRun(
  kind: 'tus' | 'single',
  store: 'fs' | 's3',
  path: string,
  size: number,
  checkout: string | undefined,
): Promise<Run> {
  const s3 = store === 's3' ? await startBenchS3() : undefined
  const server = await startBenchServer('upload-server.mjs', { BENCH_BLOBS: store, ...s3?.env }, [], checkout)
  try {
    const idle = rssMb(server.pid)
    if (kind === 'single') {
      const res = await curlUpload(server.url, server.token, path, { network: 'public' })
      if (res.status !== 200) throw new Error(`upload failed: ${JSON.stringify(res.body)}`)
      return { seconds: res.seconds, rssGrowthMb: peakRssMb(server.pid) - idle }
    }
    const tus = await tusUpload(server.url, server.token, path, size)
    return {
      seconds: tus.seconds,
      rssGrowthMb: peakRssMb(server.pid) - idle,
      lastPatchSeconds: tus.last.seconds,
      lastPatchBytes: tus.last.bytes,
      patchMBps: tus.patchMBps,
    }
  } finally {
    await server.stop()
    await s3?.close()
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!
const range = (values: number[], digits: number) =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)} (${median(values).toFixed(digits)})`

export async function benchTus(store: 'fs' | 's3', size: number, rounds: number, builds: BenchBuild[]) {
  const path = await benchFile(size)
  const rows = []
  const runs = new Map(builds.map((b) => [b.name, { ratios: [] as number[], tus: [] as Run[], single: [] as Run[] }]))
  for (let round = 0; round < rounds; round++) {
    for (const build of builds) {
      const single = await oneRun('single', store, path, size, build.checkout)
      const tus = await oneRun('tus', store, path, size, build.checkout)
      const figures = runs.get(build.name)!
      figures.single.push(single)
      figures.tus.push(tus)
      figures.ratios.push(single.seconds / tus.seconds)
    }
  }
  for (const build of builds) {
    const { ratios, tus, single } = runs.get(build.name)!
    const completing = tus.map((t) => t.lastPatchSeconds!)
    // what the completing PATCH's bytes alone take at the pace of the other PATCHes
    const overhead = tus.map((t) => t.lastPatchSeconds! - t.lastPatchBytes! / MB / t.patchMBps!)
    rows.push(
      `| ${build.name} | ${store} | ${size / 1024 / 1024} MiB | ${rounds} | ${range(
        single.map((r) => size / MB / r.seconds),
        0,
      )} | ${range(
        tus.map((r) => size / MB / r.seconds),
        0,
      )} | ${range(ratios, 2)} | ${range(completing, 2)} | ${range(overhead, 2)} | ${range(
        tus.map((r) => r.rssGrowthMb),
        0,
      )} / ${range(
        single.map((r) => r.rssGrowthMb),
        0,
      )} | ${loadavg()[0]!.toFixed(1)} |`,
    )
  }
  return rows
}

export const TUS_HEADER = [
  '| build | store | size | rounds | single request MB/s, min–max (median) | tus MB/s | tus ÷ single request (goal ≥ 0.9) | completing PATCH s | completing PATCH minus its bytes at the PATCH pace, s (goal ≤ 1) | server RSS growth MB, tus / single (goal ≤ 100) | load |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
].join('\n')

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = (process.env.BENCH_TUS_MIB ?? '1024,2048').split(',').map((mib) => Number(mib) * 1024 * 1024)
  const stores = (process.env.BENCH_TUS_STORES ?? 'fs,s3').split(',') as ('fs' | 's3')[]
  const rounds = Number(process.env.BENCH_TUS_ROUNDS ?? 1)
  const builds = buildsToCompare('BENCH_TUS_BASELINE')
  const rows: string[] = []
  for (const store of stores) for (const size of sizes) rows.push(...(await benchTus(store, size, rounds, builds)))
  console.log(TUS_HEADER)
  console.log(rows.join('\n'))
}
