/**
 * Concurrent downloads: 64 clients (curl) fetch the same 100 MiB file at once through the public
 * gateway (`GET /ipfs/{cid}`) of a Pinfold server process (filesystem blobs, then memory blobs), and
 * the same 64 fetch it from a bare node:http server piping `fs.createReadStream` (the baseline),
 * measured in this run. Reports the servers' peak RSS while serving (VmHWM, reset just before the
 * downloads start) and the aggregate throughput as a ratio to the baseline. Every client must
 * receive exactly the file's size, and one client's bytes are hashed against the file's SHA-256.
 *
 * BENCH_DOWNLOAD_MIB (default 100), BENCH_DOWNLOAD_CLIENTS (default 64), BENCH_DOWNLOAD_STORES
 * (default `fs,memory`).
 */
import { basename } from 'node:path'
import { benchFile } from './lib/bench-file.js'
import { curlUpload } from './lib/curl.js'
import { type CurlDownload, curlDownload, fileSha256 } from './lib/download.js'
import { type BenchServer, peakRssMb, resetPeakRss, rssMb, startBenchServer } from './lib/process.js'

const MIB = 1024 * 1024
const SIZE = Number(process.env.BENCH_DOWNLOAD_MIB ?? 100) * MIB
const CLIENTS = Number(process.env.BENCH_DOWNLOAD_CLIENTS ?? 64)
const STORES = (process.env.BENCH_DOWNLOAD_STORES ?? 'fs,memory').split(',')
const TARGET_RSS_MB = 200

interface Row {
  name: string
  /** RSS just before the downloads (after the upload, for Pinfold), MB. */
  idleRssMb: number
  peakRssMb: number
  seconds: number
  mbps: number
}

/** `CLIENTS` concurrent downloads of `url`; the first one's bytes are hashed. */
async function downloadAll(server: BenchServer, url: string, expectedSha: string): Promise<Omit<Row, 'name'>> {
  const idle = rssMb(server.pid)
  resetPeakRss(server.pid)
  const start = process.hrtime.bigint()
  const results: CurlDownload[] = await Promise.all(
    Array.from({ length: CLIENTS }, (_, i) => curlDownload(url, { hash: i === 0 })),
  )
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  const peak = peakRssMb(server.pid)
  for (const [i, result] of results.entries()) {
    if (result.status !== 200 || result.bytes !== SIZE) {
      throw new Error(`${url}: client ${i} got status ${result.status} and ${result.bytes} of ${SIZE} bytes`)
    }
  }
  if (results[0]!.sha256 !== expectedSha) throw new Error(`${url}: client 0 received different bytes`)
  return { idleRssMb: idle, peakRssMb: peak, seconds, mbps: (CLIENTS * SIZE) / 1e6 / seconds }
}

const path = await benchFile(SIZE)
const sha = await fileSha256(path)
const rows: Row[] = []

const bare = await startBenchServer('bare-file-server.mjs')
try {
  rows.push({
    name: 'bare node:http + fs.createReadStream',
    ...(await downloadAll(bare, `${bare.url}/${basename(path)}`, sha)),
  })
} finally {
  await bare.stop()
}

for (const store of STORES) {
  const server = await startBenchServer('gateway-server.mjs', { BENCH_BLOBS: store })
  try {
    const res = await curlUpload(server.url, server.token, path, { network: 'public' })
    const cid = (res.body as { data?: { cid?: string } }).data?.cid
    if (res.status !== 200 || !cid) throw new Error(`upload failed: ${JSON.stringify(res.body)}`)
    rows.push({
      name: `Pinfold \`GET /ipfs/{cid}\`, ${store} blobs`,
      ...(await downloadAll(server, `${server.url}/ipfs/${cid}`, sha)),
    })
  } finally {
    await server.stop()
  }
}

const baseline = rows[0]!
const verdict = (row: Row) => {
  if (row === baseline) return ''
  // memory blobs hold the file itself in the server's heap: only the growth while serving is comparable
  if (row.name.includes('memory')) return ` (holds the ${SIZE / MIB} MiB file)`
  return row.peakRssMb <= TARGET_RSS_MB ? ' (met)' : ' (missed)'
}
console.log(
  [
    `${CLIENTS} concurrent curl clients, each downloading the same ${SIZE / MIB} MiB file over loopback; every client received exactly ${SIZE} bytes and one client's SHA-256 matched the file. Peak RSS is the server process's VmHWM, reset just before the downloads start; idle RSS is its RSS at that moment (with memory blobs it holds the file). Filesystem reads come from the page cache.`,
    '',
    `| server | idle RSS MB | peak RSS MB while serving (target ≤ ${TARGET_RSS_MB}) | growth while serving MB | wall s | aggregate MB/s | MB/s ÷ bare server |`,
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.idleRssMb.toFixed(0)} | ${row.peakRssMb.toFixed(0)}${verdict(row)} | ${(row.peakRssMb - row.idleRssMb).toFixed(0)} | ${row.seconds.toFixed(1)} | ${row.mbps.toFixed(0)} | ${(row.mbps / baseline.mbps).toFixed(2)}${row === baseline ? ' (baseline)' : ''} |`,
    ),
  ].join('\n'),
)
