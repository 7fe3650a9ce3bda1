import { createCipheriv, createHash } from 'node:crypto'
import { importer } from 'ipfs-unixfs-importer'
import type { CID } from 'multiformats/cid'
import { describe, expect, it } from 'vitest'
import { type CidVersion, computeFileCid, kuboImporterOptions } from '../src/index.js'

/** Deterministic bytes that do not compress or repeat (ChaCha20 keystream, as Kubo's own tests use). */
function keystream(seed: string, size: number): Uint8Array {
  return createCipheriv('chacha20', createHash('sha256').update(seed).digest(), Buffer.alloc(16)).update(
    Buffer.alloc(size),
  )
}

/** Delivered in uneven pieces, as a request body arrives, so leaves straddle chunk boundaries. */
async function* unevenly(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let offset = 0, step = 1; offset < bytes.length; offset += step, step = (step * 7 + 65_537) % 200_000) {
    yield bytes.subarray(offset, offset + step)
  }
}

/** The same import with ipfs-unixfs-importer's own leaf step (main-thread hashing), as the reference. */
async function referenceCid(bytes: Uint8Array, version: CidVersion): Promise<CID> {
  const { bufferImporter: _ours, ...options } = kuboImporterOptions(version)
  let root: CID | undefined
  for await (const entry of importer([{ content: unevenly(bytes) }], { put: async (cid: CID) => cid }, options)) {
    root = entry.cid
  }
  return root!
}

describe('CIDs with leaves hashed on worker threads', () => {
  // 2.3 MiB: several leaves at 256 KiB, a partial last leaf, and 3 leaves under the 1 MiB profile
  const bytes = keystream('worker-hashing', 2_400_000)

  for (const version of ['v1', 'v0', 'unixfs-v1-2025'] as const) {
    it(`computeFileCid - ${version}: the same root as the importer's own leaf hashing`, async () => {
      const expected = await referenceCid(bytes, version)
      expect((await computeFileCid(unevenly(bytes), version)).toString()).toBe(expected.toString())
    })
  }

  it('computeFileCid - many imports at once share the workers without mixing up their leaves', async () => {
    const inputs = Array.from({ length: 12 }, (_, i) => keystream(`parallel-${i}`, 300_000 + i * 70_000))
    const expected = await Promise.all(inputs.map((input) => referenceCid(input, 'v1')))
    const actual = await Promise.all(inputs.map((input) => computeFileCid(unevenly(input), 'v1')))
    expect(actual.map(String)).toEqual(expected.map(String))
  })
})
