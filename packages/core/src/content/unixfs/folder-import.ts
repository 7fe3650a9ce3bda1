import type { BlobStore, CallOptions, CidVersion } from '@pinfold/interface'
import { invalid, PinfoldError, throwIfAborted } from '@pinfold/interface'
import { exporter, recursive } from 'ipfs-unixfs-exporter'
import { type ImportCandidate, importer } from 'ipfs-unixfs-importer'
import type { CID } from 'multiformats/cid'
import { blockKey, multihashKey } from '../dag/blocks.js'
import { createCarBlobWriter, PLACEHOLDER_ROOT, type WrittenCar } from '../dag/car-blob.js'
import { readBlock } from '../dag/read-block.js'
import { checkFileNode } from './file-node-check.js'
import { kuboImporterOptions } from './profiles.js'

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
 * How deep and how long a folder path may be. The importer builds and flushes its directory tree
 * recursively, one level per segment: thousands of levels overflowed the stack (a bare 500). 64
 * levels and Linux's PATH_MAX leave room for any real tree (Windows stops at 260 characters).
 */
export const FOLDER_LIMITS = { segments: 64, pathChars: 4096 } as const

/** A directory of the folder being uploaded; `file` marks a name already taken by a file. */
interface PathNode {
  file: boolean
  children: Map<string, PathNode>
}

/**
 * Enforces the folder rules: relative paths of non-empty segments, no `.` or `..`, every file
 * under the same top-level directory (Pinata's legacy rule), no path given twice, no path that is
 * both a file and a directory, and {@link FOLDER_LIMITS}. The paths seen so far form a tree, so each
 * check walks a path's segments once: the work is linear in the length of the paths.
 */
export class FolderPaths {
  private readonly root: PathNode = { file: false, children: new Map() }
  top: string | undefined

  add(path: string): string {
    // an over-long path is named by its start: the message must not echo 4 KiB back
    const quoted = JSON.stringify(path.length > 100 ? `${path.slice(0, 100)}…` : path)
    if (path.length > FOLDER_LIMITS.pathChars) {
      throw invalid(`folder path ${quoted} is longer than ${FOLDER_LIMITS.pathChars} characters`)
    }
    if (path.includes('\\')) throw invalid(`folder path ${quoted} must use "/" as separator`)
    if (path.startsWith('/')) throw invalid(`folder path ${quoted} must be relative`)
    const segments = path.split('/')
    if (segments.length > FOLDER_LIMITS.segments) {
      throw invalid(`folder path ${quoted} is deeper than ${FOLDER_LIMITS.segments} levels`)
    }
    for (const segment of segments) {
      if (segment === '') throw invalid(`folder path ${quoted} has an empty segment`)
      if (segment === '.' || segment === '..') throw invalid(`folder path ${quoted} may not use . or ..`)
      if ([...segment].some((char) => char.charCodeAt(0) < 0x20))
        throw invalid(`folder path ${quoted} holds control characters`)
    }
    if (segments.length < 2) {
      throw invalid('More than one file and/or directory was provided for pinning: every file must be in one folder')
    }
    if (this.top === undefined) this.top = segments[0]
    else if (segments[0] !== this.top) {
      throw invalid(
        `More than one file and/or directory was provided for pinning: ${quoted} is not under ${JSON.stringify(this.top)}`,
      )
    }
    let directory = this.root
    for (const [depth, segment] of segments.slice(0, -1).entries()) {
      let child = directory.children.get(segment)
      if (!child) {
        child = { file: false, children: new Map() }
        directory.children.set(segment, child)
      }
      if (child.file) {
        const both = JSON.stringify(segments.slice(0, depth + 1).join('/'))
        throw invalid(`folder path ${both} is both a file and a directory`)
      }
      directory = child
    }
    const name = segments.at(-1)!
    const existing = directory.children.get(name)
    if (existing?.file) throw invalid(`folder path ${quoted} is given twice`)
    if (existing) throw invalid(`folder path ${quoted} is also a directory`)
    directory.children.set(name, { file: true, children: new Map() })
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
        checkFileNode(cid, bytes)
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
