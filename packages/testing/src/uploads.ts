import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { CarBlockIterator } from '@ipld/car/iterator'
import { CarWriter } from '@ipld/car/writer'
import { openContentDag } from '@pinfold/core'
import { CID } from 'multiformats/cid'
import { chacha } from './gateway.js'
import type { ApiTarget } from './test-api.js'

export interface FolderFile {
  path: string
  bytes: string | Uint8Array
  type?: string
}

/** One entry of the shared notes' CID vectors (`fixtures/cid-vectors.json`). */
export interface Vector {
  name: string
  kind: 'file' | 'directory'
  regenerate: string
  options: string
  cidv0?: string | null
  cidv1?: string | null
  sha256?: string
}

export const VECTORS: readonly Vector[] = JSON.parse(
  readFileSync(new URL('../fixtures/cid-vectors.json', import.meta.url), 'utf8'),
).vectors

/** The directory vectors of the shared notes, by name. */
export function directoryVector(name: string): Vector {
  const found = VECTORS.find((v) => v.kind === 'directory' && v.name === name)
  if (!found) throw new Error(`no directory vector named ${name}`)
  return found
}

/** Rebuilds a file vector's bytes from its recipe: a UTF-8 literal, or Kubo's deterministic ChaCha20 stream. */
export function vectorBytes(vector: Vector): Uint8Array {
  const literal = /^UTF-8 bytes of "((?:[^"\\]|\\.)*)"/.exec(vector.regenerate)
  if (literal) return new TextEncoder().encode(JSON.parse(`"${literal[1]}"`))
  const stream = /^(\d+) bytes: ChaCha20.*key = SHA-256\(UTF-8 "([^"]+)"\)/.exec(vector.regenerate)
  if (stream) return chacha(stream[2]!, Number(stream[1]))
  throw new Error(`no recipe for ${vector.name}`)
}

/** The folder directory vectors of the shared notes, with their files spelled out from each vector's recipe. */
export const VECTOR_FOLDERS: [string, FolderFile[]][] = [
  [
    'dir planets (ipfs add -r planets)',
    [
      { path: 'planets/mars.txt', bytes: 'Hello Mars!\n' },
      { path: 'planets/venus.txt', bytes: 'Hello Venus!\n' },
    ],
  ],
  [
    'dir moons (nested)',
    [
      { path: 'moons/jupiter/europa.txt', bytes: 'Hello Europa!\n' },
      { path: 'moons/saturn/titan.txt', bytes: 'Hello Titan!\n' },
      { path: 'moons/mercury.txt', bytes: 'hey you are no moon!\n' },
    ],
  ],
  [
    'dir with subdir (hey, hello/world)',
    [
      { path: 'DIR/hey', bytes: 'Hey\n' },
      { path: 'DIR/hello/world', bytes: 'World\n' },
    ],
  ],
  [
    'dir test (mfs1.txt, mfs2.txt)',
    [
      { path: 'test/mfs1.txt', bytes: 'file1\n' },
      { path: 'test/mfs2.txt', bytes: 'file2\n' },
    ],
  ],
]

/**
 * A multipart body with one `file` part per entry (filename = relative path), then the fields
 * (the SDK's order), or the fields first with `fieldsFirst`.
 */
export function folderForm(
  files: readonly FolderFile[],
  fields: Record<string, string> = {},
  { fieldsFirst = false } = {},
): FormData {
  const body = new FormData()
  const appendFields = () => {
    for (const [key, value] of Object.entries(fields)) body.append(key, value)
  }
  if (fieldsFirst) appendFields()
  for (const file of files) {
    const blob = new Blob([file.bytes as string], file.type === undefined ? {} : { type: file.type })
    body.append('file', blob, file.path)
  }
  if (!fieldsFirst) appendFields()
  return body
}

/** Every block of a stored content, read back through the block index. */
export async function storedBlocks(server: ApiTarget, cid: string) {
  const { stores } = server
  const content = await stores.records.files.getContent(cid)
  if (!content) throw new Error(`no content for ${cid}`)
  const blocks: { cid: string; bytes: Uint8Array }[] = []
  for await (const block of openContentDag(content, CID.parse(cid), {
    ...stores,
    records: stores.records.blocks,
  }).blocks()) {
    blocks.push({ cid: block.cid.toString(), bytes: block.bytes })
  }
  return { content, blocks }
}

/** Parses a stored CAR blob with @ipld/car, to prove it is a well-formed CARv1. */
export async function readStoredCar(server: ApiTarget, blobKey: string) {
  const reader = await CarBlockIterator.fromIterable(await server.stores.blobs.get(blobKey))
  const cids: string[] = []
  for await (const block of reader) cids.push(block.cid.toString())
  return { version: reader.version, cids }
}

/** A 1×1 PNG, then random bytes after its IEND so each call is a new file (file-type sees a PNG). */
export function pngBytes(): Buffer {
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
  return Buffer.concat([Buffer.from(png, 'base64'), randomBytes(32)])
}

/** A CARv1 of `blocks`, in the order given, naming `roots`. */
export async function carBytes(roots: CID[], blocks: Iterable<{ cid: CID; bytes: Uint8Array }>): Promise<Uint8Array> {
  const { writer, out } = CarWriter.create(roots)
  const chunks: Uint8Array[] = []
  const collected = (async () => {
    for await (const chunk of out) chunks.push(chunk)
  })()
  for (const block of blocks) await writer.put(block)
  await writer.close()
  await collected
  return Buffer.concat(chunks)
}
