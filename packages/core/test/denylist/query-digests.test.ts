import { createHash, randomBytes } from 'node:crypto'
import { base58btc } from 'multiformats/bases/base58'
import { CID } from 'multiformats/cid'
import * as Digest from 'multiformats/hashes/digest'
import { describe, expect, it } from 'vitest'
import { DigestTable } from '../../src/denylist/digest-table.js'
import { legacyCidText, modernCidText } from '../../src/denylist/hash-input.js'
import { MAX_KEY_BYTES, QueryDigestCache, recentDigests } from '../../src/denylist/query-digests.js'
import { Denylists, ListReader } from '../../src/index.js'

/**
 * The lookup's fast path: the texts a double-hashed rule hashes, written as bytes without
 * multiformats' encoders, must be byte for byte what those encoders write; and the digests kept
 * for repeat lookups must never answer for another query.
 */

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8')

/** Multihashes of every shape the encoders meet: usual digests, short ones, identity (leading zero bytes). */
function multihashes(): Uint8Array[] {
  const out: Uint8Array[] = []
  for (let i = 0; i < 300; i++) out.push(Digest.create(0x12, randomBytes(32)).bytes)
  for (let length = 0; length < 70; length++) out.push(Digest.create(0x00, randomBytes(length)).bytes)
  out.push(Digest.create(0x00, new Uint8Array(5)).bytes) // all zeros after the code
  out.push(Digest.create(0x13, randomBytes(64)).bytes)
  out.push(Digest.create(0x1e, Buffer.alloc(32, 0xff)).bytes)
  return out
}

describe('deny lists: the texts double hashes are taken of', () => {
  it('modern - base58btc of the multihash (with /path) is what multiformats writes', () => {
    for (const multihash of multihashes()) {
      expect(text(modernCidText(multihash, ''))).toBe(base58btc.baseEncode(multihash))
      expect(text(modernCidText(multihash, 'a/é/ü'))).toBe(`${base58btc.baseEncode(multihash)}/a/é/ü`)
    }
    // base-x writes a `1` per leading zero byte, and nothing else for them
    expect(text(modernCidText(new Uint8Array([0, 0, 0]), ''))).toBe(base58btc.baseEncode(new Uint8Array([0, 0, 0])))
    expect(text(modernCidText(new Uint8Array([0, 0, 1]), ''))).toBe(base58btc.baseEncode(new Uint8Array([0, 0, 1])))
  })

  it('modern - base58btc of every length (by weights up to 80 bytes, a byte at a time beyond) is what multiformats writes', () => {
    for (let length = 0; length <= 200; length++) {
      const shapes = [randomBytes(length), Buffer.alloc(length, 0xff), Buffer.alloc(length), randomBytes(length)]
      shapes[3]!.fill(0, 0, length >> 2) // leading zeros, then digits
      for (const bytes of shapes) expect(text(modernCidText(bytes, ''))).toBe(base58btc.baseEncode(bytes))
    }
  })

  it('legacy - the CIDv1 in base32, then / and the path, is what multiformats writes', () => {
    for (const [i, multihash] of multihashes().entries()) {
      const cid = CID.createV1(i % 2 === 0 ? 0x55 : 0x71, Digest.decode(multihash))
      expect(text(legacyCidText(cid, ''))).toBe(`${cid.toString()}/`)
      expect(text(legacyCidText(cid, 'dir/file.txt'))).toBe(`${cid.toString()}/dir/file.txt`)
      expect(text(legacyCidText(cid, 'é/ü'))).toBe(`${cid.toString()}/é/ü`)
    }
  })

  it('legacy - a CIDv0 is written as the CIDv1 (dag-pb) it is', () => {
    for (let i = 0; i < 100; i++) {
      const v0 = CID.createV0(Digest.create(0x12, randomBytes(32)))
      expect(text(legacyCidText(v0, ''))).toBe(`${v0.toV1().toString()}/`)
      expect(text(legacyCidText(v0, 'a/b'))).toBe(`${v0.toV1().toString()}/a/b`)
    }
  })

  it('texts - each is its exact bytes, whatever length the text before it had', () => {
    const cid = CID.createV1(0x55, Digest.create(0x12, randomBytes(32)))
    const multihash = cid.multihash.bytes
    // a long path, a short one, none: every text is its own length (the views of the reused buffer)
    for (const path of ['x'.repeat(700), 'ab', '', 'x'.repeat(3_000), 'c']) {
      expect(text(modernCidText(multihash, path))).toBe(
        path === '' ? base58btc.baseEncode(multihash) : `${base58btc.baseEncode(multihash)}/${path}`,
      )
      expect(text(legacyCidText(cid, path))).toBe(`${cid.toString()}/${path}`)
    }
  })

  it('lookups - a CIDv0 and its CIDv1 meet the same legacy rule; another codec of the same bytes does not', () => {
    const v0 = CID.parse('QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR')
    const raw = CID.createV1(0x55, v0.multihash)
    const legacyRule = `//${createHash('sha256').update(`${v0.toV1().toString()}/`).digest('hex')}`
    const lists = new Denylists()
    const reader = new ListReader(lists.list('l.deny'), (problem) => {
      throw new Error(problem.reason)
    })
    reader.push(new TextEncoder().encode(`${legacyRule}\n`))
    reader.end()
    // twice each, in both orders, so a kept digest of one codec is never taken for the other's
    for (let i = 0; i < 2; i++) {
      expect(lists.checkCid(raw)).toBeUndefined()
      expect(lists.checkCid(v0)).toMatchObject({ line: 1 })
      expect(lists.checkCid(v0.toV1())).toMatchObject({ line: 1 })
      expect(lists.check({ namespace: 'ipfs', cid: v0, path: 'x' })).toBeUndefined()
    }
  })

  it('lookups - a long path a caller names is matched every time, and its digests are not kept', () => {
    const cid = CID.parse('bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e')
    const longPath = `a/${'b'.repeat(2_000)}`
    const rule = `//${createHash('sha256').update(`${cid.toString()}/${longPath}`).digest('hex')}`
    const lists = new Denylists()
    const reader = new ListReader(lists.list('l.deny'), (problem) => {
      throw new Error(problem.reason)
    })
    reader.push(new TextEncoder().encode(`${rule}\n`))
    reader.end()
    const kept = recentDigests().size
    for (let i = 0; i < 2; i++) {
      expect(lists.check({ namespace: 'ipfs', cid, path: longPath })).toMatchObject({ line: 1 })
      expect(lists.check({ namespace: 'ipfs', cid, path: `${longPath}c` })).toBeUndefined()
    }
    expect(recentDigests().size).toBe(kept)
    // a short path's digests are kept
    lists.check({ namespace: 'ipfs', cid, path: 'short' })
    expect(recentDigests().size).toBe(kept + 1)
  })
})

describe('deny lists: the digests kept for repeat lookups', () => {
  /** Writes `key` where the cache reads it and takes its entry. */
  const entryOf = (cache: QueryDigestCache, key: Uint8Array) => {
    cache.key.set(key)
    return cache.entry(key.length)
  }

  it('a key finds its own entry again, with what was written there; another key never does', () => {
    const cache = new QueryDigestCache(64)
    const keys = Array.from({ length: 40 }, (_, i) => randomBytes(1 + (i % MAX_KEY_BYTES)))
    const entries = keys.map((key, i) => {
      const entry = entryOf(cache, key)
      cache.setHasSha256(entry)
      cache.setLegacyCodec(entry, 0x55)
      cache.bytes.fill(i, cache.legacyAt(entry), cache.legacyAt(entry) + 32)
      cache.bytes.fill(i + 1, cache.sha256At(entry), cache.sha256At(entry) + 32)
      return entry
    })
    let found = 0
    for (const [i, key] of keys.entries()) {
      const entry = entryOf(cache, key)
      // 40 keys in 128 entries can still evict each other (two per set): a kept one is intact
      if (!cache.hasSha256(entry)) continue
      found++
      expect(entry).toBe(entries[i])
      expect(cache.legacyCodec(entry)).toBe(0x55)
      expect(cache.bytes.subarray(cache.legacyAt(entry), cache.legacyAt(entry) + 32)).toEqual(
        new Uint8Array(32).fill(i),
      )
      expect(cache.bytes.subarray(cache.sha256At(entry), cache.sha256At(entry) + 32)).toEqual(
        new Uint8Array(32).fill(i + 1),
      )
    }
    expect(found).toBeGreaterThan(20)
    // a key that is a prefix of a kept one, or one byte off, is another key: its entry comes cleared
    const prefix = entryOf(cache, keys[39]!.subarray(0, keys[39]!.length - 1))
    expect(cache.hasSha256(prefix)).toBe(false)
    const changed = Uint8Array.from(keys[38]!)
    changed[0]! ^= 1
    const other = entryOf(cache, changed)
    expect(cache.hasSha256(other)).toBe(false)
    expect(cache.legacyCodec(other)).toBe(-1)
  })

  it('holds at most two entries per set, and keeps the one read lately', () => {
    // one set: every key lands in it
    const cache = new QueryDigestCache(1)
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((key) => Buffer.from(key))
    cache.setHasSha256(entryOf(cache, a!))
    entryOf(cache, b!)
    entryOf(cache, a!) // read lately: `c` takes `b`'s entry
    entryOf(cache, c!)
    expect(cache.size).toBe(2)
    expect(cache.hasSha256(entryOf(cache, a!))).toBe(true)
    entryOf(cache, d!) // takes `c`'s
    entryOf(cache, b!) // takes `a`'s: `d` was read after it
    expect(cache.hasSha256(entryOf(cache, a!))).toBe(false)
    // a query that is not kept gets a cleared entry of its own, outside the sets
    const transient = cache.transient()
    expect(transient).toBe(2)
    expect(cache.size).toBe(2)
  })
})

describe('deny lists: the digest table double-hashed rules are kept in', () => {
  it('finds every digest through many growths, the later line of a digest wins, hints are kept', () => {
    const table = new DigestTable(32)
    const digests = Array.from({ length: 5_000 }, () => randomBytes(32).toString('latin1'))
    for (const [at, digest] of digests.entries()) table.set(digest, { line: at + 1, allow: at % 3 === 0 })
    expect(table.size).toBe(5_000)
    // looked up as bytes anywhere in an array, as a query's digests are
    const bytes = randomBytes(40)
    const get = (digest: string) => {
      bytes.write(digest, 5, 'latin1')
      return table.get(bytes, 5)
    }
    const found = digests.map(get)
    expect(found).toEqual(digests.map((_, at) => ({ line: at + 1, allow: at % 3 === 0 })))
    expect(get(randomBytes(32).toString('latin1'))).toBeUndefined()
    table.set(digests[7]!, { line: 9_000, allow: false, hints: { gateway_status: '451' } })
    expect(get(digests[7]!)).toEqual({ line: 9_000, allow: false, hints: { gateway_status: '451' } })
    table.set(digests[7]!, { line: 9_001, allow: true })
    expect(get(digests[7]!)).toEqual({ line: 9_001, allow: true })
    expect(table.size).toBe(5_000)
    // a digest of another length can match nothing: not kept
    table.set('short', { line: 1, allow: false })
    expect(table.size).toBe(5_000)
  })
})
