import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { CarBlockIterator } from '@ipld/car/iterator'
import { openContentDag } from '@pinfold/core'
import { CID } from 'multiformats/cid'
import type { TestServer } from './server.js'

export interface FolderFile {
  path: string
  bytes: string | Uint8Array
  type?: string
}

export interface DirectoryVector {
  name: string
  cidv0: string
  cidv1: string
}

/** The directory vectors of the shared notes, by name. */
export function directoryVector(name: string): DirectoryVector {
  const vectors = JSON.parse(readFileSync(new URL('../fixtures/cid-vectors.json', import.meta.url), 'utf8'))
    .vectors as (DirectoryVector & { kind: string })[]
  const found = vectors.find((v) => v.kind === 'directory' && v.name === name)
  if (!found) throw new Error(`no directory vector named ${name}`)
  return found
}

/** A multipart body with one `file` part per entry (filename = relative path), then the fields. */
export function folderForm(files: readonly FolderFile[], fields: Record<string, string> = {}): FormData {
  const body = new FormData()
  for (const file of files) {
    const blob = new Blob([file.bytes as string], file.type === undefined ? {} : { type: file.type })
    body.append('file', blob, file.path)
  }
  for (const [key, value] of Object.entries(fields)) body.append(key, value)
  return body
}

/** Every block of a stored content, read back through the block index. */
export async function storedBlocks(server: TestServer, cid: string) {
  const { service } = server.running
  const content = await service.records.getContent(cid)
  if (!content) throw new Error(`no content for ${cid}`)
  const blocks: { cid: string; bytes: Uint8Array }[] = []
  for await (const block of openContentDag(content, CID.parse(cid), service).blocks()) {
    blocks.push({ cid: block.cid.toString(), bytes: block.bytes })
  }
  return { content, blocks }
}

/** Parses a stored CAR blob with @ipld/car, to prove it is a well-formed CARv1. */
export async function readStoredCar(server: TestServer, blobKey: string) {
  const reader = await CarBlockIterator.fromIterable(await server.running.service.blobs.get(blobKey))
  const cids: string[] = []
  for await (const block of reader) cids.push(block.cid.toString())
  return { version: reader.version, cids }
}

/** A 1×1 PNG, then random bytes after its IEND so each call is a new file (file-type sees a PNG). */
export function pngBytes(): Buffer {
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
  return Buffer.concat([Buffer.from(png, 'base64'), randomBytes(32)])
}
