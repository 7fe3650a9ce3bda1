/**
 * Deny lists at badbits' scale: a list of 1M double-hashed rules (badbits' legacy form,
 * `//sha256hex(CIDv1base32/)`, and the modern form, `//base58btc(sha256-multihash(b58mh))`), read
 * through the same `ListReader` the server uses, then timed lookups of CIDs that are and are not
 * on it, each a full check as a gateway request makes it (prepare the query, hash it, look it up).
 *
 *   npx tsx --conditions=source bench/denylist.ts [--rules=1000000] [--lookups=200000]
 *
 * Memory is the heap and RSS grown by the loaded list, measured after a forced collection (the
 * list text itself is generated in chunks and dropped as it is read, as a streamed fetch is).
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
const HIT_EVERY = 1_000
const randomRule = (form: 'legacy' | 'modern') =>
  form === 'legacy'
    ? `//${randomBytes(32).toString('hex')}`
    : `//${base58btc.baseEncode(Digest.create(0x12, randomBytes(32)).bytes)}`

function ruleOf(form: 'legacy' | 'modern', cid: CID): string {
  if (form === 'legacy') return `//${createHash('sha256').update(`${cid.toV1().toString()}/`).digest('hex')}`
  const twice = Digest.create(0x12, createHash('sha256').update(base58btc.baseEncode(cid.multihash.bytes)).digest())
  return `//${base58btc.baseEncode(twice.bytes)}`
}

function memory() {
  gc()
  const { heapUsed, rss } = process.memoryUsage()
  return { heapUsed, rss }
}

function percentile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0)

function run(form: 'legacy' | 'modern') {
  const lists = new Denylists()
  const before = memory()
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
  const after = memory()

  // half the lookups are CIDs on the list, half are not
  const hits = Math.ceil(RULES / HIT_EVERY)
  const queries = Array.from({ length: 2_000 }, (_, i) =>
    i % 2 === 0 ? cidOf(((i / 2) % hits) * HIT_EVERY) : cidOf(RULES + i),
  )
  for (let i = 0; i < 20_000; i++) lists.checkCid(queries[i % queries.length]!) // warm-up
  const times = new Float64Array(LOOKUPS)
  let blocked = 0
  const cpuBefore = process.cpuUsage()
  for (let i = 0; i < LOOKUPS; i++) {
    // a fresh CID object per lookup, as each request parses its own (no string cached on it)
    const cid = CID.decode(queries[i % queries.length]!.bytes)
    const t0 = process.hrtime.bigint()
    const match = lists.checkCid(cid)
    times[i] = Number(process.hrtime.bigint() - t0) / 1000
    if (match) blocked++
  }
  const cpu = process.cpuUsage(cpuBefore)
  if (blocked !== LOOKUPS / 2) throw new Error(`expected ${LOOKUPS / 2} blocked lookups, got ${blocked}`)
  times.sort()
  return {
    form,
    bytes,
    readSeconds: readMs / 1000,
    generateSeconds: generateMs / 1000,
    heap: after.heapUsed - before.heapUsed,
    rss: after.rss - before.rss,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    p999: percentile(times, 0.999),
    // CPU time over the timed loop (timer reads included): what contention on a shared machine does not inflate
    cpuMean: (cpu.user + cpu.system) / LOOKUPS,
  }
}

const lines = [
  `${RULES.toLocaleString('en-US')} double-hashed rules in one list, ${LOOKUPS.toLocaleString('en-US')} lookups (half on the list), each a fresh CID object; ${process.arch}, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores at the start.`,
  '',
  '| form | list size | read into the index | heap grown | RSS grown | lookup p50 µs | p99 µs | p99.9 µs | CPU µs per lookup (mean) |',
  '|---|---|---|---|---|---|---|---|---|',
]
for (const form of ['legacy', 'modern'] as const) {
  const r = run(form)
  console.error(
    `${form}: read ${r.readSeconds.toFixed(1)} s (generated in ${r.generateSeconds.toFixed(1)} s), p99 ${r.p99.toFixed(2)} µs`,
  )
  lines.push(
    `| ${form === 'legacy' ? 'legacy (badbits sha256 hex)' : 'modern (sha2-256 multihash)'} | ${mib(r.bytes)} MiB | ${r.readSeconds.toFixed(1)} s | ${mib(r.heap)} MiB | ${mib(r.rss)} MiB | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.p999.toFixed(2)} | ${r.cpuMean.toFixed(2)} |`,
  )
}
console.log(lines.join('\n'))
