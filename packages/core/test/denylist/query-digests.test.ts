import { createHash, randomBytes } from 'node:crypto'
import { base58btc } from 'multiformats/bases/base58'
import { CID } from 'multiformats/cid'
import * as Digest from 'multiformats/hashes/digest'
import { describe, expect, it } from 'vitest'
import { DigestTable } from '../../src/denylist/digest-table.js'
import { legacyCidText, modernCidText } from '../../src/denylist/hash-input.js'
import { DigestMemo, recentDigests } from '../../src/denylist/query-digests.js'
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

  it('legacy - the CIDv1 in base32, then / and the path, is what multiformats writes', () => {
    for (const [i, multihash] of multihashes().entries()) {
      const cid = CID.createV1(i % 2 === 0 ? 0x55 : 0x71, Digest.decode(multihash))
      expect(text(legacyCidText(cid.bytes, ''))).toBe(`${cid.toString()}/`)
      expect(text(legacyCidText(cid.bytes, 'dir/file.txt'))).toBe(`${cid.toString()}/dir/file.txt`)
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
    const kept = recentDigests.size
    for (let i = 0; i < 2; i++) {
      expect(lists.check({ namespace: 'ipfs', cid, path: longPath })).toMatchObject({ line: 1 })
      expect(lists.check({ namespace: 'ipfs', cid, path: `${longPath}c` })).toBeUndefined()
    }
    expect(recentDigests.size).toBe(kept)
    // a short path's digests are kept
    lists.check({ namespace: 'ipfs', cid, path: 'short' })
    expect(recentDigests.size).toBe(kept + 1)
  })

  it('memo - holds at most two generations, and keeps what was read lately', () => {
    const memo = new DigestMemo(3)
    const a = memo.get('a')
    a.sha256 = 'kept'
    for (const key of ['b', 'c', 'd', 'e']) memo.get(key)
    expect(memo.size).toBeLessThanOrEqual(6)
    // `a` was in the generation that turned over once: read again it comes back
    expect(memo.get('a').sha256).toBe('kept')
    for (const key of ['f', 'g', 'h', 'i', 'j', 'k', 'l']) memo.get(key)
    expect(memo.get('a').sha256).toBeUndefined()
  })
})

describe('deny lists: the digest table double-hashed rules are kept in', () => {
  it('finds every digest through many growths, the later line of a digest wins, hints are kept', () => {
    const table = new DigestTable(32)
    const digests = Array.from({ length: 5_000 }, () => randomBytes(32).toString('latin1'))
    for (const [at, digest] of digests.entries()) table.set(digest, { line: at + 1, allow: at % 3 === 0 })
    expect(table.size).toBe(5_000)
    const found = digests.map((digest) => table.get(digest))
    expect(found).toEqual(digests.map((_, at) => ({ line: at + 1, allow: at % 3 === 0 })))
    expect(table.get(randomBytes(32).toString('latin1'))).toBeUndefined()
    table.set(digests[7]!, { line: 9_000, allow: false, hints: { gateway_status: '451' } })
    expect(table.get(digests[7]!)).toEqual({ line: 9_000, allow: false, hints: { gateway_status: '451' } })
    table.set(digests[7]!, { line: 9_001, allow: true })
    expect(table.get(digests[7]!)).toEqual({ line: 9_001, allow: true })
    expect(table.size).toBe(5_000)
    // a digest of another length can match nothing: not kept, never found
    table.set('short', { line: 1, allow: false })
    expect(table.get('short')).toBeUndefined()
    expect(table.size).toBe(5_000)
  })
})
