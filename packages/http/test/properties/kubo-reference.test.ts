import { VECTOR_FOLDERS, VECTORS, vectorBytes } from '@pinfold/testing/uploads'
import { describe, expect, it } from 'vitest'
import { KUBO, type Profile, referenceDag } from './support/kubo-reference.js'

/**
 * The round-trip properties trust `referenceDag` to say what Kubo would answer; this proves it
 * on every CID vector of the shared notes (Kubo's published CIDs, verified once with Kubo's own
 * tests), for files and folders, before anything is compared with it.
 */

const text = (bytes: string | Uint8Array) => (typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes)

describe('Kubo reference importer', () => {
  for (const vector of VECTORS.filter((v) => v.kind === 'file')) {
    it(`reference - gives Kubo's CIDs for the file vector ${vector.name}`, async () => {
      const content = vectorBytes(vector)
      const expected: [Profile, string | null | undefined][] = vector.options.startsWith('unixfs-v1-2025')
        ? [['unixfs-v1-2025', vector.cidv1]]
        : [
            ['v0', vector.cidv0],
            ['v1', vector.cidv1],
          ]
      for (const [profile, cid] of expected) {
        expect(cid, profile).toBeTruthy()
        expect((await referenceDag([{ content }], profile)).root.toString(), profile).toBe(cid)
      }
    })
  }

  for (const [name, files] of VECTOR_FOLDERS) {
    const vector = VECTORS.find((v) => v.name === name)!
    it(`reference - gives Kubo's CIDs for the folder vector ${name}`, async () => {
      const entries = files.map((f) => ({ path: f.path, content: text(f.bytes) }))
      const top = files[0]!.path.split('/')[0]
      expect((await referenceDag(entries, 'v0', { top })).root.toString()).toBe(vector.cidv0)
      expect((await referenceDag(entries, 'v1', { top })).root.toString()).toBe(vector.cidv1)
    })
  }

  it("reference - gives Kubo's CIDs for ipfs add -w (the wrapped-file vector)", async () => {
    const vector = VECTORS.find((v) => v.name.startsWith('wrap-with-directory'))!
    const entries = [{ path: 'file.txt', content: text('IPFS\n') }]
    expect((await referenceDag(entries, 'v0', { wrap: true })).root.toString()).toBe(vector.cidv0)
    expect((await referenceDag(entries, 'v1', { wrap: true })).root.toString()).toBe(vector.cidv1)
  })

  it("reference - leaves and file nodes have Kubo's sizes: 256 KiB / 174 links, and 1 MiB for unixfs-v1-2025", async () => {
    // The vectors stop at one chunk, so chunking and fan-out are checked on the DAG's shape, with
    // Kubo's numbers written here (`size-262144`, `helpers.DefaultLinksPerBlock` = 8192 / 47).
    // Zero-filled leaves of one size are one block, so the count shows the nodes above them.
    const blocks = async (profile: Profile, size: number) =>
      (await referenceDag([{ content: new Uint8Array(size) }], profile)).blocks.size
    const kubo: [Profile, number, number | undefined][] = [
      ['v0', 262_144, 174],
      ['v1', 262_144, 174],
      // 1024 links would take a 1 GiB file; the property suite never builds one
      ['unixfs-v1-2025', 1_048_576, undefined],
    ]
    for (const [profile, chunk, links] of kubo) {
      expect(KUBO[profile].chunk, profile).toBe(chunk)
      expect(await blocks(profile, chunk), profile).toBe(1) // the leaf is the root
      expect(await blocks(profile, chunk + 1), profile).toBe(3) // root → (full leaf, 1-byte leaf)
      if (links === undefined) continue
      expect(KUBO[profile].links, profile).toBe(links)
      expect(await blocks(profile, links * chunk), profile).toBe(2) // root → 174 × the leaf
      expect(await blocks(profile, (links + 1) * chunk), profile).toBe(4) // root → (174 × leaf, 1 × leaf)
    }
  })
})
