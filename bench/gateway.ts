/**
 * Gateway: time to first byte of a 1 GiB file through `GET /ipfs/{cid}`, as a ratio to the TTFB of
 * a 1 KiB file on the same server and of the same 1 GiB file from a bare node:http server
 * (fs.createReadStream), all measured in this run, in alternating rounds. Then the bytes read from
 * the blob store (a counting decorator in the bench server) to answer a 1 KiB `Range` request in
 * the middle of the file, and a trustless CAR of the same 1 KiB (`entity-bytes`), cold and warm.
 *
 * BENCH_GATEWAY_MIB (default 1024), BENCH_GATEWAY_ROUNDS (default 9).
 */
import { basename } from 'node:path'
import { benchFile } from './lib/bench-file.js'
import { curlUpload } from './lib/curl.js'
import { fileSlice, getBytes, timeToFirstByte } from './lib/download.js'
import { type BenchServer, startBenchServer } from './lib/process.js'

const MIB = 1024 * 1024
const SIZE = Number(process.env.BENCH_GATEWAY_MIB ?? 1024) * MIB
const ROUNDS = Number(process.env.BENCH_GATEWAY_ROUNDS ?? 9)
const CHUNK = 256 * 1024
const RANGE_LENGTH = 1024
/** Middle of the file, not aligned to a chunk. */
const RANGE_OFFSET = Math.floor(SIZE / 2) + 12_345

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

async function upload(server: BenchServer, path: string): Promise<string> {
  const res = await curlUpload(server.url, server.token, path, { network: 'public' })
  const cid = (res.body as { data?: { cid?: string } }).data?.cid
  if (res.status !== 200 || !cid) throw new Error(`upload failed: ${JSON.stringify(res.body)}`)
  return cid
}

/** The blob store's read counters, once they stop moving (a cut download may still be unwinding). */
async function blobReads(server: BenchServer): Promise<{ gets: number; bytes: number }> {
  let last = ''
  for (;;) {
    const now = (await getBytes(`${server.url}/__bench/blob-reads`)).body.toString()
    if (now === last) return JSON.parse(now) as { gets: number; bytes: number }
    last = now
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Blob bytes and reads a request caused, its duration, and its answer. */
async function measureReads(server: BenchServer, url: string, headers: Record<string, string> = {}) {
  const before = await blobReads(server)
  const start = process.hrtime.bigint()
  const answer = await getBytes(url, headers)
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  const after = await blobReads(server)
  return { ...answer, ms, gets: after.gets - before.gets, bytes: after.bytes - before.bytes }
}

const bigPath = await benchFile(SIZE)
const smallPath = await benchFile(1024)
const bare = await startBenchServer('bare-file-server.mjs')
const server = await startBenchServer('gateway-server.mjs', { BENCH_BLOBS: 'fs', BENCH_COUNT_READS: '1' })
const lines: string[] = []
try {
  const bigCid = await upload(server, bigPath)
  const smallCid = await upload(server, smallPath)

  // (a) time to first byte, alternating targets round by round
  const targets = [
    { name: `bare node:http file server, ${SIZE / MIB} MiB file`, url: `${bare.url}/${basename(bigPath)}` },
    { name: 'Pinfold `GET /ipfs/{cid}`, 1 KiB file', url: `${server.url}/ipfs/${smallCid}` },
    { name: `Pinfold \`GET /ipfs/{cid}\`, ${SIZE / MIB} MiB file`, url: `${server.url}/ipfs/${bigCid}` },
  ]
  const ttfb = new Map<string, number[]>(targets.map((t) => [t.name, []]))
  for (let round = -1; round < ROUNDS; round++) {
    for (const target of targets) {
      const { status, ms } = await timeToFirstByte(target.url)
      if (status !== 200) throw new Error(`${target.url}: status ${status}`)
      if (round >= 0) ttfb.get(target.name)!.push(ms) // round -1 warms up
    }
  }
  const bareMs = median(ttfb.get(targets[0]!.name)!)
  const smallMs = median(ttfb.get(targets[1]!.name)!)
  lines.push(
    `Time to first body byte (median of ${ROUNDS} alternating rounds after a warm-up; new connection each time, the download cut after the first byte; filesystem blobs, no filename, so Pinfold also sniffs the content type from the first 4 KiB).`,
    '',
    '| target | TTFB ms | ÷ Pinfold 1 KiB file | ÷ bare server |',
    '|---|---|---|---|',
    ...targets.map((t) => {
      const ms = median(ttfb.get(t.name)!)
      return `| ${t.name} | ${ms.toFixed(2)} | ${(ms / smallMs).toFixed(2)} | ${(ms / bareMs).toFixed(2)} |`
    }),
  )

  // (b) bytes read from the blob store for 1 KiB of the middle of the file
  const expected = await fileSlice(bigPath, RANGE_OFFSET, RANGE_LENGTH)
  const rangeHeader = `bytes=${RANGE_OFFSET}-${RANGE_OFFSET + RANGE_LENGTH - 1}`
  const range = await measureReads(server, `${server.url}/ipfs/${bigCid}`, { range: rangeHeader })
  if (range.status !== 206 || !range.body.equals(expected)) {
    throw new Error(`Range request: status ${range.status}, ${range.body.length} bytes, not the file's`)
  }
  const entityBytes = `${RANGE_OFFSET}:${RANGE_OFFSET + RANGE_LENGTH - 1}`
  const carUrl = `${server.url}/ipfs/${bigCid}?format=car&dag-scope=entity&entity-bytes=${entityBytes}`
  const carCold = await measureReads(server, carUrl)
  const carWarm = await measureReads(server, carUrl)
  for (const car of [carCold, carWarm]) {
    // the CAR carries the raw leaf block that holds the asked-for bytes
    if (car.status !== 200 || !car.body.includes(expected)) throw new Error(`CAR request: status ${car.status}`)
  }
  const rawRoot = await measureReads(server, `${server.url}/ipfs/${bigCid}?format=raw`)
  if (rawRoot.status !== 200) throw new Error(`raw request: status ${rawRoot.status}`)
  const kib = (bytes: number) => (bytes / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 })
  const verdict = (bytes: number) => (bytes <= CHUNK ? 'met' : 'missed')
  lines.push(
    '',
    `Blob bytes read per request (a counting BlobStore decorator in the server), ${RANGE_LENGTH} bytes at offset ${RANGE_OFFSET.toLocaleString('en-US')} of the ${SIZE / MIB} MiB file; every answer checked against the file.`,
    '',
    '| request | answer bytes | blob reads | blob KiB read (target ≤ 256 KiB, one chunk) | ms |',
    '|---|---|---|---|---|',
    `| \`Range: ${rangeHeader}\` | ${range.body.length} | ${range.gets} | ${kib(range.bytes)} (${verdict(range.bytes)}) | ${range.ms.toFixed(1)} |`,
    `| \`?format=car&dag-scope=entity&entity-bytes=${entityBytes}\`, first trustless request of this content | ${carCold.body.length} | ${carCold.gets} | ${kib(carCold.bytes)} (${verdict(carCold.bytes)}) | ${carCold.ms.toFixed(0)} |`,
    `| the same again | ${carWarm.body.length} | ${carWarm.gets} | ${kib(carWarm.bytes)} (${verdict(carWarm.bytes)}) | ${carWarm.ms.toFixed(1)} |`,
    `| \`?format=raw\` (root block), after that | ${rawRoot.body.length} | ${rawRoot.gets} | ${kib(rawRoot.bytes)} | ${rawRoot.ms.toFixed(1)} |`,
  )
} finally {
  await Promise.all([bare.stop(), server.stop()])
}
console.log(lines.join('\n'))
