/** The blockstore bitswap answers peers from: Pinfold's public blocks, read once per want, never written. */
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { sha256 } from 'multiformats/hashes/sha2'
import { describe, expect, it } from 'vitest'
import { PublicBlockstore } from '../src/public-blockstore.js'

const cidOf = async (text: string) => CID.createV1(raw.code, await sha256.digest(new TextEncoder().encode(text)))

async function collect(chunks: AsyncIterable<Uint8Array>) {
  const out: Uint8Array[] = []
  for await (const chunk of chunks) out.push(chunk)
  return Buffer.concat(out).toString()
}

describe('PublicBlockstore', () => {
  it("has then get - one read of Pinfold's block, however often Helia asks has", async () => {
    const cid = await cidOf('public')
    const reads: string[] = []
    const store = new PublicBlockstore(
      async (asked) => {
        reads.push(asked)
        return new TextEncoder().encode('public')
      },
      () => {},
    )
    expect(await store.has(cid)).toBe(true)
    expect(await store.has(cid)).toBe(true)
    expect(await collect(store.get(cid))).toBe('public')
    expect(reads).toEqual([cid.toString()])
  })

  it('a block the reader does not give (private, unknown) is not had, and get throws NotFoundError', async () => {
    const store = new PublicBlockstore(
      async () => undefined,
      () => {},
    )
    const cid = await cidOf('private')
    expect(await store.has(cid)).toBe(false)
    await expect(collect(store.get(cid))).rejects.toMatchObject({ name: 'NotFoundError' })
  })

  it('a read that fails (bytes no longer match their hash) is reported and answered as not had', async () => {
    const reported: string[] = []
    const store = new PublicBlockstore(
      async () => {
        throw new Error('INTERNAL: block does not match its multihash')
      },
      (cid, error) => reported.push(`${cid}: ${(error as Error).message}`),
    )
    const cid = await cidOf('corrupt')
    expect(await store.has(cid)).toBe(false)
    expect(reported).toEqual([`${cid}: INTERNAL: block does not match its multihash`])
  })

  it('put stores nothing: a fetched block passing through is not served afterwards', async () => {
    const store = new PublicBlockstore(
      async () => undefined,
      () => {},
    )
    const cid = await cidOf('fetched')
    await store.put(cid, new TextEncoder().encode('fetched'))
    expect(await store.has(cid)).toBe(false)
  })
})
