/**
 * Helia's own clients read what Pinfold stores, over real HTTP, from a real server on 127.0.0.1:
 * @helia/unixfs (cat, ls) on a Helia node whose only way out is the trustless-gateway block broker
 * pointed at this server, and @helia/verified-fetch on such a node. Both verify every block's hash.
 */
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { sha256 } from 'multiformats/hashes/sha2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { FOLDER, type InteropContents, uploadContents } from './contents.js'
import { fetchWithHelia, type HeliaItem, type HeliaResult } from './run-clients.js'

describe('interop - Helia clients over the trustless gateway', () => {
  let server: TestServer
  let contents: InteropContents
  const results = new Map<string, HeliaResult>()
  let refused: string[]

  // Every client reads every content in one Node 22 process, concurrently: one start-up cost, and a
  // failing case costs its own bounded timeout at most.
  beforeAll(async () => {
    server = await startTestServer({ HOST: '127.0.0.1' })
    contents = await uploadContents(server)
    const items: Record<string, HeliaItem> = {
      'small v1': { cid: contents.small.v1.cid },
      'small v0': { cid: contents.small.v0.cid },
      'big v1': { cid: contents.big.v1.cid },
      'big v0': { cid: contents.big.v0.cid },
      'folder ls': { cid: contents.folder.cid, ls: true },
      ...Object.fromEntries(Object.keys(FOLDER).map((path) => [path, { cid: contents.folder.cid, path }])),
    }
    const out = await fetchWithHelia(server.url, Object.values(items))
    Object.keys(items).forEach((name, i) => {
      results.set(name, out.results[i]!)
    })
    refused = out.refused
  })
  afterAll(() => server?.close())

  const result = (name: string) => {
    const found = results.get(name)
    if (!found) throw new Error(`no client result for ${name}`)
    return found
  }

  it('helia - starts offline: no request leaves for anything but the gateway under test', () => {
    expect(refused).toEqual([])
  })

  it('unixfs cat - a single-block file, CIDv1 (raw leaf as root)', () => {
    expect(result('small v1').unixfs).toEqual(contents.small.v1.digest)
  })

  it('unixfs cat - a single-block file, CIDv0 (dag-pb File node)', () => {
    expect(result('small v0').unixfs).toEqual(contents.small.v0.digest)
  })

  it('unixfs cat - a 5 MiB file (20 leaves), CIDv1', () => {
    expect(result('big v1').unixfs).toEqual(contents.big.v1.digest)
  })

  it('unixfs cat - the same 5 MiB file, CIDv0', () => {
    expect(result('big v0').unixfs).toEqual(contents.big.v0.digest)
  })

  it('unixfs ls - lists a folder root, each entry under the CID its bytes hash to', async () => {
    const listing = result('folder ls').unixfs as { entries: { name: string; cid: string }[] }
    expect(listing.entries?.map((e) => e.name)).toEqual(['a.txt', 'big.bin', 'sub'])
    // a.txt is one raw block, so its CID follows from its bytes alone
    const aTxt = CID.createV1(raw.code, await sha256.digest(new TextEncoder().encode(FOLDER['a.txt'])))
    expect(listing.entries[0]!.cid).toBe(aTxt.toString())
  })

  for (const path of Object.keys(FOLDER) as (keyof typeof FOLDER)[]) {
    it(`unixfs cat - ${path} inside a folder`, () => {
      expect(result(path).unixfs).toEqual(contents.folder.files[path])
    })
  }

  it('verified-fetch - a single-block file, CIDv1 and CIDv0', () => {
    for (const version of ['v1', 'v0'] as const) {
      expect(result(`small ${version}`).verifiedFetch, version).toEqual({
        status: 200,
        ...contents.small[version].digest,
      })
    }
  })

  for (const version of ['v1', 'v0'] as const) {
    it(`verified-fetch - a 5 MiB file (20 leaves), CID${version}`, () => {
      expect(result(`big ${version}`).verifiedFetch).toEqual({ status: 200, ...contents.big[version].digest })
    })
  }

  for (const path of Object.keys(FOLDER) as (keyof typeof FOLDER)[]) {
    it(`verified-fetch - ipfs://{folder}/${path}`, () => {
      expect(result(path).verifiedFetch).toEqual({ status: 200, ...contents.folder.files[path] })
    })
  }
})
