/**
 * Upload throughput and server memory: a file streamed over loopback HTTP (curl) into a server
 * process, as a ratio to streaming SHA-256 and to the UnixFS importer alone over the same file,
 * both measured in this run, and to two floors of this machine: the same curl upload into a bare
 * node:http server that only SHA-256es the body it receives (the receive floor,
 * `servers/receive-hash-sink.mjs`; goal: upload ≥ 0.75 of it), and into one that also parses the
 * multipart body with busboy (the parser floor, `servers/multipart-hash-sink.mjs`).
 * `BENCH_UPLOAD_ROUNDS` alternates the three that many times (min–max and median reported);
 * `BENCH_UPLOAD_BASELINE=/path/to/other/checkout` (built) uploads into its server too, in every
 * round, the two builds in alternating order, for before/after ratios against the same floors;
 * `BENCH_CPU_PROF=1` profiles the Pinfold server and prints where its busy time went. The server's
 * CPU time during the upload (main thread, and its other threads: file writes, fsyncs, GC, the
 * compiler) is reported per GiB: on a shared machine it moves much less than MB/s, so an A/B can be
 * judged by it too.
 * On the filesystem each round also adds the same file with Helia in process (`lib/helia-add.ts`:
 * `addByteStream` into blockstore-fs, the same importer settings, its root CID checked against the
 * upload's): upload ÷ Helia add, goal ≥ 1.5. Helia's blockstore-fs writes each block to a temp file
 * and renames it, with no fsync; Pinfold's upload is durable (fsynced) before it answers.
 */
import { createReadStream, rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { computeFileCid } from '@pinfold/core'
import { benchFile, WORK_DIR } from './lib/bench-file.js'
import { type BenchBuild, buildsToCompare } from './lib/builds.js'
import { hotSpots } from './lib/cpu-profile.js'
import { curlUpload } from './lib/curl.js'
import { heliaAdd } from './lib/helia-add.js'
import { peakRssMb, rssMb, startBenchServer, threadCpuSeconds } from './lib/process.js'
import { startBenchS3 } from './lib/s3.js'
import { sha256File } from './lib/sha256-file.js'

export interface UploadFigures {
  /** Which build's server took the upload: `this build`, or `baseline` (`BENCH_UPLOAD_BASELINE`). */
  build: string
  store: string
  sizeMiB: number
  uploadMBps: number
  sha256MBps: number
  importerMBps: number
  floorMBps: number
  receiveFloorMBps: number
  ratioToSha256: number
  ratioToFloor: number
  ratioToReceiveFloor: number
  /** Helia's in-process add of the same file (filesystem rows only), median MB/s. */
  heliaMBps?: number | undefined
  /** Upload ÷ Helia add of each round (filesystem rows only). */
  heliaRatios?: number[] | undefined
  overheadVsImporter: number
  serverPeakRssMb: number
  serverRssGrowthMb: number
  /** The server's CPU seconds during the upload, per GiB, median: its main thread, and its other threads. */
  mainCpuPerGiB: number
  otherCpuPerGiB: number
  rounds: number
  /** Upload ÷ receive floor of each round, for the spread. */
  receiveRatios: number[]
  load: number
}

const profileDir = join(WORK_DIR, 'upload-cpu-profile')
const profiling = process.env.BENCH_CPU_PROF === '1'

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

/** The same upload into a server that only receives and hashes the body (the file's size counts, as above). */
async function receiveFloorMBps(path: string, size: number): Promise<number> {
  const sink = await startBenchServer('receive-hash-sink.mjs')
  try {
    const res = await curlUpload(sink.url, sink.token, path)
    if (typeof (res.body as { sha256?: unknown }).sha256 !== 'string')
      throw new Error('the receive sink did not answer')
    return size / MB / res.seconds
  } finally {
    await sink.stop()
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!

async function importerMBps(path: string, size: number): Promise<number> {
  const start = process.hrtime.bigint()
  await computeFileCid(read(path), 'v1')
  return size / MB / since(start)
}

export async function benchUpload(
  store: 'fs' | 's3',
  size: number,
  rounds = 1,
  builds: BenchBuild[] = [{ name: 'this build' }],
): Promise<UploadFigures[]> {
  const path = await benchFile(size)
  const s3 = store === 's3' ? await startBenchS3() : undefined
  try {
    const sha = await sha256File(path, size)
    const importer = await importerMBps(path, size)
    const runs = new Map<string, RoundFigures[]>(builds.map((build) => [build.name, []]))
    for (let round = 0; round < rounds; round++) {
      const receive = await receiveFloorMBps(path, size)
      const floor = await floorMBps(path, size, sha.hex)
      const helia = store === 'fs' ? await heliaAdd(path) : undefined
      // alternate which build goes first, so neither always follows the floors
      for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
        const server = await startBenchServer(
          'upload-server.mjs',
          { BENCH_BLOBS: store, ...s3?.env },
          profiling ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
          build.checkout,
        )
        try {
          const idle = rssMb(server.pid)
          const cpuBefore = threadCpuSeconds(server.pid)
          const res = await curlUpload(server.url, server.token, path, { network: 'public' })
          const cpuAfter = threadCpuSeconds(server.pid)
          if (res.status !== 200) throw new Error(`upload failed: ${JSON.stringify(res.body)}`)
          const peak = peakRssMb(server.pid)
          const cid = (res.body as { data?: { cid?: string } }).data?.cid
          // a different root would mean a different DAG, so a different amount of work: no ratio then
          if (helia && cid !== helia.cid)
            throw new Error(`Helia's add gave ${helia.cid}, the upload ${cid}: the importer settings differ`)
          runs.get(build.name)!.push({
            upload: size / MB / res.seconds,
            floor,
            receive,
            helia: helia && size / MB / helia.seconds,
            peak,
            growth: peak - idle,
            mainCpu: cpuAfter.main - cpuBefore.main,
            otherCpu: cpuAfter.others - cpuBefore.others,
          })
        } finally {
          await server.stop()
        }
      }
    }
    return builds.map((build) => figures(build.name, store, size, rounds, sha.MBps, importer, runs.get(build.name)!))
  } finally {
    await s3?.close()
  }
}

interface RoundFigures {
  upload: number
  floor: number
  receive: number
  helia?: number | undefined
  peak: number
  growth: number
  mainCpu: number
  otherCpu: number
}

function figures(
  build: string,
  store: string,
  size: number,
  rounds: number,
  sha256MBps: number,
  importer: number,
  runs: RoundFigures[],
): UploadFigures {
  const upload = median(runs.map((r) => r.upload))
  const floor = median(runs.map((r) => r.floor))
  const receive = median(runs.map((r) => r.receive))
  const receiveRatios = runs.map((r) => r.upload / r.receive)
  const heliaRuns = runs.filter((r) => r.helia !== undefined)
  return {
    build,
    store,
    sizeMiB: size / 1024 / 1024,
    uploadMBps: upload,
    sha256MBps,
    importerMBps: importer,
    floorMBps: floor,
    receiveFloorMBps: receive,
    ratioToSha256: upload / sha256MBps,
    ratioToFloor: median(runs.map((r) => r.upload / r.floor)),
    ratioToReceiveFloor: median(receiveRatios),
    heliaMBps: heliaRuns.length > 0 ? median(heliaRuns.map((r) => r.helia!)) : undefined,
    heliaRatios: heliaRuns.length > 0 ? heliaRuns.map((r) => r.upload / r.helia!) : undefined,
    overheadVsImporter: importer / upload,
    serverPeakRssMb: Math.max(...runs.map((r) => r.peak)),
    serverRssGrowthMb: Math.max(...runs.map((r) => r.growth)),
    mainCpuPerGiB: median(runs.map((r) => r.mainCpu)) / (size / 2 ** 30),
    otherCpuPerGiB: median(runs.map((r) => r.otherCpu)) / (size / 2 ** 30),
    rounds,
    receiveRatios,
    load: loadavg()[0]!,
  }
}

export function uploadTable(rows: UploadFigures[]): string {
  const fixed = (n: number, digits = 0) => n.toFixed(digits)
  const spread = (ratios: number[] | undefined) =>
    ratios === undefined
      ? '—'
      : `${fixed(median(ratios), 2)} (${fixed(Math.min(...ratios), 2)}–${fixed(Math.max(...ratios), 2)})`
  return [
    '| build | store | size | rounds | upload MB/s | SHA-256 MB/s | importer MB/s | receive floor MB/s (receive + hash only) | parser floor MB/s (busboy + hash) | upload ÷ receive floor (goal ≥ 0.75), median (min–max) | parser floor ÷ receive floor | upload ÷ parser floor | upload ÷ SHA-256 (target ≥ 0.5) | importer ÷ upload (target ≤ 1.5) | Helia add MB/s (in process, blockstore-fs) | upload ÷ Helia add (goal ≥ 1.5), median (min–max) | server CPU s per GiB: main thread + other threads | server peak RSS MB (target ≤ 200) | RSS growth MB (goal ≤ 100) | load |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.build} | ${r.store} | ${r.sizeMiB} MiB | ${r.rounds} | ${fixed(r.uploadMBps)} | ${fixed(r.sha256MBps)} | ${fixed(r.importerMBps)} | ${fixed(r.receiveFloorMBps)} | ${fixed(r.floorMBps)} | ${fixed(r.ratioToReceiveFloor, 2)} (${fixed(Math.min(...r.receiveRatios), 2)}–${fixed(Math.max(...r.receiveRatios), 2)}) | ${fixed(r.floorMBps / r.receiveFloorMBps, 2)} | ${fixed(r.ratioToFloor, 2)} | ${fixed(r.ratioToSha256, 2)} | ${fixed(r.overheadVsImporter, 2)} | ${r.heliaMBps === undefined ? '—' : fixed(r.heliaMBps)} | ${spread(r.heliaRatios)} | ${fixed(r.mainCpuPerGiB, 2)} + ${fixed(r.otherCpuPerGiB, 2)} | ${fixed(r.serverPeakRssMb)} | ${fixed(r.serverRssGrowthMb)} | ${r.load.toFixed(1)} |`,
    ),
  ].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = (process.env.BENCH_UPLOAD_MIB ?? '1024').split(',').map((mib) => Number(mib) * 1024 * 1024)
  const rows: UploadFigures[] = []
  const stores = (process.env.BENCH_UPLOAD_STORES ?? 'fs,s3').split(',') as ('fs' | 's3')[]
  const rounds = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 1)
  if (profiling) rmSync(profileDir, { recursive: true, force: true })
  const builds = buildsToCompare('BENCH_UPLOAD_BASELINE')
  for (const store of stores) for (const size of sizes) rows.push(...(await benchUpload(store, size, rounds, builds)))
  console.log(uploadTable(rows))
  if (profiling) {
    const { functions, places } = hotSpots(profileDir, 20)
    console.log('\n| function (self time) | share of busy time |\n|---|---|')
    for (const spot of functions) console.log(`| ${spot.where} | ${(spot.share * 100).toFixed(1)} % |`)
    console.log('\n| where | share of busy time |\n|---|---|')
    for (const spot of places) console.log(`| ${spot.where} | ${(spot.share * 100).toFixed(1)} % |`)
  }
}
