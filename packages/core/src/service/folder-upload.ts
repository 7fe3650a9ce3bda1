import { exporter, recursive } from 'ipfs-unixfs-exporter'
import { type ImportCandidate, importer } from 'ipfs-unixfs-importer'
import type { CID } from 'multiformats/cid'
import { blockKey, multihashKey } from '../dag/blocks.js'
import { createCarBlobWriter, PLACEHOLDER_ROOT, type WrittenCar } from '../dag/car-blob.js'
import { readBlock } from '../dag/read-block.js'
import { invalid, PinfoldError, throwIfAborted } from '../errors.js'
import type { BlobStore, CallOptions } from '../ports.js'
import { type CidVersion, kuboImporterOptions } from '../unixfs/profiles.js'

/**
 * Folder uploads: many files whose names carry relative paths under one top-level directory,
 * imported into one UnixFS DAG exactly as `ipfs add -r <dir>` (with the profile's CID version)
 * would, and stored as a CARv1 of every block (content kind `car`).
 */

/** A file's relative path as the client sent it; validated by {@link FolderPaths}. */
export interface FolderFile {
  path: string
  content: AsyncIterable<Uint8Array>
}

export interface ImportedFolder extends WrittenCar {
  cid: CID
  /** The shared top-level directory's name. */
  name: string
  numberOfFiles: number
}

/** True when an uploaded file name makes the upload a folder upload. */
export const isFolderPath = (path: string) => path.includes('/') || path.includes('\\')

/**
 * Enforces the folder rules: relative paths of non-empty segments, no `.` or `..`, every file
 * under the same top-level directory (Pinata's legacy rule), no path given twice, and no path
 * that is both a file and a directory.
 */
export class FolderPaths {
  private readonly files = new Set<string>()
  private readonly directories = new Set<string>()
  top: string | undefined

  add(path: string): string {
    if (path.includes('\\')) throw invalid(`folder path ${JSON.stringify(path)} must use "/" as separator`)
    if (path.startsWith('/')) throw invalid(`folder path ${JSON.stringify(path)} must be relative`)
    const segments = path.split('/')
    for (const segment of segments) {
      if (segment === '') throw invalid(`folder path ${JSON.stringify(path)} has an empty segment`)
      if (segment === '.' || segment === '..') throw invalid(`folder path ${JSON.stringify(path)} may not use . or ..`)
      if ([...segment].some((char) => char.charCodeAt(0) < 0x20))
        throw invalid(`folder path ${JSON.stringify(path)} holds control characters`)
    }
    if (segments.length < 2) {
      throw invalid('More than one file and/or directory was provided for pinning: every file must be in one folder')
    }
    if (this.top === undefined) this.top = segments[0]
    else if (segments[0] !== this.top) {
      throw invalid(
        `More than one file and/or directory was provided for pinning: ${JSON.stringify(path)} is not under ${JSON.stringify(this.top)}`,
      )
    }
    if (this.files.has(path)) throw invalid(`folder path ${JSON.stringify(path)} is given twice`)
    if (this.directories.has(path)) throw invalid(`folder path ${JSON.stringify(path)} is also a directory`)
    for (let i = 1; i < segments.length; i++) {
      const dir = segments.slice(0, i).join('/')
      if (this.files.has(dir)) throw invalid(`folder path ${JSON.stringify(dir)} is both a file and a directory`)
      this.directories.add(dir)
    }
    this.files.add(path)
    return path
  }
}

/**
 * Imports `files` (pulled one at a time; each file's content is read to its end before the next
 * file is requested, as a multipart body requires) into a CARv1 blob under `key`. On failure
 * nothing is left under `key` or its index.
 */
export async function importFolder(
  blobs: BlobStore,
  key: string,
  files: AsyncIterable<FolderFile>,
  version: CidVersion,
  options: CallOptions = {},
): Promise<ImportedFolder> {
  const writer = createCarBlobWriter(blobs, key, PLACEHOLDER_ROOT, options)
  const paths = new FolderPaths()
  let numberOfFiles = 0
  async function* candidates(): AsyncGenerator<ImportCandidate> {
    for await (const file of files) {
      throwIfAborted(options.signal)
      paths.add(file.path)
      numberOfFiles++
      let finished!: () => void
      const consumed = new Promise<void>((resolve) => (finished = resolve))
      yield { path: file.path, content: untilDone(file.content, finished) }
      // never ask the source for the next file while this one's bytes are still unread
      await consumed
    }
  }
  try {
    const blockstore = {
      async put(cid: CID, bytes: Uint8Array) {
        await writer.put(cid, bytes)
        return cid
      },
    }
    let root: CID | undefined
    for await (const entry of importer(candidates(), blockstore, kuboImporterOptions(version))) {
      if (entry.path === paths.top) root = entry.cid
    }
    if (numberOfFiles === 0 || paths.top === undefined) throw invalid('file is required')
    if (!root) throw new PinfoldError('INTERNAL', 'the importer produced no directory root')
    return { ...(await writer.close()), cid: root, name: paths.top, numberOfFiles }
  } catch (error) {
    await writer.abort(error)
    throw error
  }
}

/**
 * Re-imports a stored folder with another CID version: the files are read back from the CAR
 * (through its in-memory block locations) and imported again into a new CAR under `key`. Used
 * when the CID version arrives after the files (the SDK sends options last), so the first import
 * had to assume v1.
 */
export async function reimportFolder(
  blobs: BlobStore,
  source: { key: string; folder: ImportedFolder },
  key: string,
  version: CidVersion,
  options: CallOptions = {},
): Promise<ImportedFolder> {
  const { folder } = source
  const locations = new Map(folder.locations.map((location) => [multihashKey(location.multihash), location]))
  const reader = {
    async *get(cid: CID) {
      const location = locations.get(blockKey(cid))
      if (!location) throw new PinfoldError('INTERNAL', `block ${cid} is missing from the staged folder`)
      yield await readBlock(blobs, source.key, location, options)
    },
  }
  const prefix = folder.cid.toString()
  async function* files(): AsyncGenerator<FolderFile> {
    for await (const found of recursive(folder.cid, reader, options)) {
      const entry = await exporter(found.cid, reader, options)
      if (entry.type !== 'file' && entry.type !== 'raw' && entry.type !== 'identity') continue
      yield { path: `${folder.name}${found.path.slice(prefix.length)}`, content: entry.content(options) }
    }
  }
  return importFolder(blobs, key, files(), version, options)
}

async function* untilDone(content: AsyncIterable<Uint8Array>, done: () => void): AsyncGenerator<Uint8Array> {
  try {
    yield* content
  } finally {
    done()
  }
}
