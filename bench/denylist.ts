/**
 * Deny lists at badbits' scale: a list of 1M double-hashed rules (badbits' legacy form,
 * `//sha256hex(CIDv1base32/)`, and the modern form, `//base58btc(sha256-multihash(b58mh))`), read
 * through the same `ListReader` the server uses, then timed lookups of CIDs that are and are not
 * on it, each a full check as a gateway request makes it (prepare the query, hash it, look it up).
 * Cold lookups ask for CIDs never seen before (the query's double hash is computed); warm ones
 * ask for the same 2,000 again and again, as a gateway sees popular content (the digests kept in
 * `recentDigests()`, a fixed 4 MiB typed-array cache made at the first lookup, are read back).
 * Each lookup is timed alone between two `process.hrtime.bigint`
 * reads, whose own cost is measured and shown as a row of its own.
 *
 *   npx tsx --conditions=source bench/denylist.ts [--rules=1000000] [--lookups=200000] [--cold=100000] [--forms=legacy,modern]
 *
 * Memory is the heap (with the ArrayBuffers outside it) and RSS grown by the loaded list, measured
 * after a forced collection (the list text itself is generated in chunks and dropped as it is read,
 * as a streamed fetch is).
 */
import { createHash, randomBytes } from 'node:crypto'
import { cpus, loadavg } from 'node:os'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { Denylists, ListReader } from '@pinfold/core'
import { base58btc } from 'multiformats/bases/base58'
import { CID } from 'multiformats/cid'
import * as Digest from 'multiformats/hashes/digest'

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const RULES = Number(arg('rules') ?? 1_000_000)
const LOOKUPS = Number(arg('lookups') ?? 200_000)
const COLD = Number(arg('cold') ?? 100_000)
const FORMS = (arg('forms') ?? 'legacy,modern').split(',') as ('legacy' | 'modern')[]

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

/** The i-th CID of the run: a raw-leaf CIDv1 over sha256 of `i`, so hits and misses are known. */
function cidOf(i: number): CID {
  return CID.createV1(0x55, Digest.create(0x12, createHash('sha256').update(`bench ${i}`).digest()))
}

/**
 * Every `HIT_EVERY`-th rule is the double hash of a CID the lookups ask for; the others are random
 * digests, as indistinguishable from them as badbits' entries are from each other (and much
 * cheaper to make than a million CIDs).
 */
const HIT_EVERY = 20
const randomRule = (form: 'legacy' | 'modern') =>
  form === 'legacy'
    ? `//${randomBytes(32).toString('hex')}`
    : `//${base58btc.baseEncode(Digest.create(0x12, randomBytes(32)).bytes)}`

function ruleOf(form: 'legacy' | 'modern', cid: CID): string {
  if (form === 'legacy') return `//${createHash('sha256').update(`${cid.toV1().toString()}/`).digest('hex')}`
  const twice = Digest.create(0x12, createHash('sha256').update(base58btc.baseEncode(cid.multihash.bytes)).digest())
  return `//${base58btc.baseEncode(twice.bytes)}`
}

/** The JS heap plus the ArrayBuffers outside it (the index keeps its digests in typed arrays). */
async function memory() {
  // an ArrayBuffer's memory is given back after the collection that finds it dead: collect, let
  // that happen, collect again
  for (let i = 0; i < 3; i++) {
    gc()
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const { heapUsed, arrayBuffers, rss } = process.memoryUsage()
  return { heapUsed: heapUsed + arrayBuffers, rss }
}

function percentile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)

async function run(form: 'legacy' | 'modern') {
  const lists = new Denylists()
  const before = await memory()
  const reader = new ListReader(lists.list(`badbits-${form}.deny`), (problem) => {
    throw new Error(`${problem.list}:${problem.line}: ${problem.reason}`)
  })
  const encoder = new TextEncoder()
  let generateMs = 0
  let readMs = 0
  let bytes = 0
  reader.push(encoder.encode(`version: 1\nname: bench ${form}\n---\n`))
  for (let start = 0; start < RULES; start += 10_000) {
    const t0 = performance.now()
    let chunk = ''
    for (let i = start; i < Math.min(RULES, start + 10_000); i++) {
      chunk += `${i % HIT_EVERY === 0 ? ruleOf(form, cidOf(i)) : randomRule(form)}\n`
    }
    const encoded = encoder.encode(chunk)
    const t1 = performance.now()
    reader.push(encoded)
    readMs += performance.now() - t1
    generateMs += t1 - t0
    bytes += encoded.byteLength
  }
  reader.end()
  const loaded = await memory()

  // cold: every lookup a CID never asked for before (its double hash computed), half on the list;
  // warm: 2,000 CIDs asked for again and again, as a gateway sees popular content (hashes kept)
  const hits = Math.floor(RULES / HIT_EVERY)
  const cold = Array.from({ length: Math.min(COLD, 2 * hits) }, (_, i) =>
    i % 2 === 0 ? cidOf((i / 2) * HIT_EVERY) : cidOf(RULES + i),
  )
  const popular = Array.from({ length: 2_000 }, (_, i) =>
    i % 2 === 0 ? cidOf(((i / 2) % hits) * HIT_EVERY) : cidOf(2 * RULES + i),
  )
  // the query CIDs are made before this, so the heap grown by the cold run is the digests it kept
  // (the cache is made at the first lookup, the warm-up's)
  const afterLoad = await memory()
  warmUp(form)
  for (let i = 0; i < 20_000; i++) lists.checkCid(cidOf(3 * RULES + i))
  const coldTimes = timed(lists, cold, cold.length)
  const memoHeap = (await memory()).heapUsed - afterLoad.heapUsed
  for (const cid of popular) lists.checkCid(cid)
  const warmTimes = timed(lists, popular, LOOKUPS)
  return {
    form,
    bytes,
    readSeconds: readMs / 1000,
    generateSeconds: generateMs / 1000,
    heap: loaded.heapUsed - before.heapUsed,
    rss: loaded.rss - before.rss,
    memoHeap,
    cold: coldTimes,
    warm: warmTimes,
  }
}

/**
 * JIT warm-up on CIDs neither timed set asks for: every path a timed lookup takes (on and off a
 * list, cold and warm) on a small list of its own, so the timed loops run optimized code (and the
 * compiler's own CPU time is not in their figures).
 */
function warmUp(form: 'legacy' | 'modern') {
  const lists = new Denylists()
  const reader = new ListReader(lists.list('warm-up.deny'), (problem) => {
    throw new Error(problem.reason)
  })
  const cids = Array.from({ length: 20_000 }, (_, i) => cidOf(4 * RULES + i))
  reader.push(
    new TextEncoder().encode(
      `${cids
        .filter((_, i) => i % 2 === 0)
        .map((cid) => ruleOf(form, cid))
        .join('\n')}\n`,
    ),
  )
  reader.end()
  for (let pass = 0; pass < 2; pass++) for (const cid of cids) lists.checkCid(CID.decode(cid.bytes))
}

/**
 * `count` checks of `cids` in turn, each timed alone (two `hrtime.bigint` reads around it: their
 * own cost, the `timer` row, is in every figure), each on a fresh CID object as a request parses
 * its own (no string cached on it). Half of them must be refused.
 */
function timed(lists: Denylists, cids: readonly CID[], count: number) {
  const fresh = Array.from({ length: count }, (_, i) => CID.decode(cids[i % cids.length]!.bytes))
  const times = new Float64Array(count)
  let blocked = 0
  const cpuBefore = process.cpuUsage()
  for (let i = 0; i < count; i++) {
    const t0 = process.hrtime.bigint()
    const match = lists.checkCid(fresh[i]!)
    times[i] = Number(process.hrtime.bigint() - t0) / 1000
    if (match) blocked++
  }
  const cpu = process.cpuUsage(cpuBefore)
  if (blocked !== count / 2) throw new Error(`expected ${count / 2} blocked lookups, got ${blocked}`)
  return summary(times, (cpu.user + cpu.system) / count)
}

function summary(times: Float64Array, cpuMean: number) {
  times.sort()
  return {
    count: times.length,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    p999: percentile(times, 0.999),
    // CPU time over the timed loop (timer reads included): what contention on a shared machine does not inflate
    cpuMean,
  }
}

/** The timer's own cost: the same two reads around nothing. */
function timerOverhead() {
  const times = new Float64Array(LOOKUPS)
  const cpuBefore = process.cpuUsage()
  for (let i = 0; i < LOOKUPS; i++) {
    const t0 = process.hrtime.bigint()
    times[i] = Number(process.hrtime.bigint() - t0) / 1000
  }
  const cpu = process.cpuUsage(cpuBefore)
  return summary(times, (cpu.user + cpu.system) / LOOKUPS)
}

const row = (name: string, r: ReturnType<typeof summary>) =>
  `| ${name} | ${r.count.toLocaleString('en-US')} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.p999.toFixed(2)} | ${r.cpuMean.toFixed(2)} |`

const load = loadavg()[0]!.toFixed(1)
const memoryLines = [
  '| form | list size | read into the index | heap + ArrayBuffers grown | RSS grown | kept digests (the cache of recent queries) |',
  '|---|---|---|---|---|---|',
]
const latencyLines = [
  '| lookups | count | p50 µs | p99 µs | p99.9 µs | CPU µs per lookup (mean) |',
  '|---|---|---|---|---|---|',
]
for (const form of FORMS) {
  const r = await run(form)
  const name = form === 'legacy' ? 'legacy (badbits sha256 hex)' : 'modern (sha2-256 multihash)'
  console.error(
    `${form}: read ${r.readSeconds.toFixed(1)} s (generated in ${r.generateSeconds.toFixed(1)} s), p99 cold ${r.cold.p99.toFixed(2)} µs, warm ${r.warm.p99.toFixed(2)} µs`,
  )
  memoryLines.push(
    // the cache is the process's: the second run only replaces the first one's entries
    `| ${name} | ${mib(r.bytes)} MiB | ${r.readSeconds.toFixed(1)} s | ${mib(r.heap)} MiB | ${mib(r.rss)} MiB | ${form === FORMS[0] ? `${mib(r.memoHeap)} MiB` : 'the same cache'} |`,
  )
  latencyLines.push(row(`${form}, cold (CID first seen)`, r.cold), row(`${form}, warm (CID seen before)`, r.warm))
}
latencyLines.push(row('timer alone (two `hrtime.bigint` reads, in every row above)', timerOverhead()))
console.log(
  [
    `${RULES.toLocaleString('en-US')} double-hashed rules in one list (one in ${HIT_EVERY} the double hash of a CID looked up); half of every lookup set is on the list; each lookup a fresh CID object; ${process.arch}, Node ${process.version}, load average ${load} on ${cpus().length} cores at the start, ${loadavg()[0]!.toFixed(1)} at the end.`,
    '',
    ...memoryLines,
    '',
    ...latencyLines,
  ].join('\n'),
)
