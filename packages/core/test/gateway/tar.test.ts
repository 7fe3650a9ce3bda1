import { Readable } from 'node:stream'
import { importer } from 'ipfs-unixfs-importer'
import type { CID } from 'multiformats/cid'
import { extract } from 'tar-stream'
import { describe, expect, it } from 'vitest'
import { kuboImporterOptions } from '../../src/content/unixfs/profiles.js'
import type { GatewayEntry, GatewayRoot } from '../../src/gateway/api.js'
import type { ContentDag } from '../../src/gateway/content-dag.js'
import { tarArchive } from '../../src/gateway/tar.js'
import { chacha } from '../support/pseudo-random-bytes.js'

const LEAF = 256 * 1024

/** A directory `site/` with `big.bin` (many leaves) and `small.txt`, its blocks in memory, reads counted. */
async function siteDag(leaves: number) {
  const blocks = new Map<string, Uint8Array>()
  const store = {
    put: async (cid: CID, bytes: Uint8Array) => {
      blocks.set(cid.toString(), bytes)
      return cid
    },
  }
  const big = chacha('tar', leaves * LEAF)
  let root: CID | undefined
  const files = [
    { path: 'site/big.bin', content: [big] },
    { path: 'site/small.txt', content: [new TextEncoder().encode('small\n')] },
  ]
  for await (const entry of importer(files, store, kuboImporterOptions('v1')))
    if (entry.path === 'site') root = entry.cid
  const reads: string[] = []
  const dag = {
    getBlock: async (cid: CID) => {
      reads.push(cid.toString())
      return blocks.get(cid.toString())
    },
    content: { size: big.length },
  } as unknown as ContentDag
  const gatewayRoot: GatewayRoot = { requested: root!, cid: root!, swapped: false, dag }
  const directory: GatewayEntry = {
    type: 'directory',
    cid: root!,
    roots: [root!],
    list: () => [][Symbol.iterator]() as never,
  }
  const gateway = { entry: async () => directory }
  return { root: root!, big, reads, archive: () => tarArchive(gateway, gatewayRoot, []) }
}

async function untar(chunks: AsyncIterable<Uint8Array>) {
  const members = new Map<string, { type: string; bytes: Buffer }>()
  const reader = extract()
  const done = new Promise<void>((resolve, reject) => {
    reader.on('entry', (header, stream, next) => {
      const parts: Buffer[] = []
      stream.on('data', (part: unknown) => parts.push(part as Buffer))
      stream.on('end', () => {
        members.set(header.name, { type: header.type ?? 'file', bytes: Buffer.concat(parts) })
        next()
      })
    })
    reader.on('finish', resolve)
    reader.on('error', reject)
  })
  Readable.from(chunks).pipe(reader)
  await done
  return members
}

describe('tar archives', () => {
  it('tar - a directory tree, each member under {cid}/, file bytes exact', async () => {
    const { root, big, archive } = await siteDag(8)
    const members = await untar((await archive()).stream)
    expect([...members.keys()]).toEqual([`${root}`, `${root}/big.bin`, `${root}/small.txt`])
    expect(members.get(`${root}`)?.type).toBe('directory')
    expect(members.get(`${root}/big.bin`)?.bytes.equals(Buffer.from(big))).toBe(true)
    expect(members.get(`${root}/small.txt`)?.bytes.toString()).toBe('small\n')
  })

  it('tar - streamed: a consumer that stops after the first bytes leaves the rest of the file unread', async () => {
    const { reads, archive } = await siteDag(64)
    const { stream } = await archive()
    const first = await stream.next()
    expect(first.done).toBe(false)
    await stream.return(undefined)
    // the names pass reads the directory and the file's root; the packer then reads a leaf or
    // two ahead of the consumer, never the 64 leaves of the file
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(reads.length).toBeLessThan(10)
  })
})
