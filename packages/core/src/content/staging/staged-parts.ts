import type { BlobStore, CallOptions, SessionStagedWrite, StagedBlobWrites } from '@pinfold/interface'
import { PinfoldError } from '@pinfold/interface'
import { coalesce } from '../../streams/coalesce.js'
import { LeafCutter } from '../unixfs/leaf-cutter.js'
import { LEAF_BYTES } from '../unixfs/profiles.js'

/** Leaves of the profile whose DAG a resumable upload builds as it goes (CIDv1; others re-read the blob). */
export const STAGED_LEAF_BYTES = LEAF_BYTES.v1

/**
 * A PATCH body's chunks are joined to at least this size before they are cut into leaves: the
 * cutter and the read-ahead keep chunks by the piece, up to a leaf and a store's minimum part
 * (5 MiB on S3), and a body of 1-byte chunks would make that millions of them.
 */
const MIN_PIECE_BYTES = 16 * 1024

/**
 * One accepted PATCH of a staged session, as recorded in its `parts` (JSON). The staged write holds
 * whole leaves only: the bytes of the leaf still open at the end of a PATCH (and, on a store with a
 * minimum part size, anything shorter than that) wait in a small `carry` blob, and the next PATCH
 * sends them first. So no hash state has to outlive a request: after a restart, or on another
 * instance, the next PATCH reads the carry (under one leaf, or under one S3 part) and goes on.
 */
export interface StagedEntry {
  /** The upload offset this PATCH started at (a retry is recognised by it). */
  at: number
  /** Token of the part appended to the staged write, or `null` when all went to the carry. */
  part: string | null
  /** Bytes of that part. */
  stored: number
  /**
   * SHA-256 digests of the leaves in that part, base64, 32 bytes each: in sessions saved before
   * their DAG was built as the PATCHes came (`staged-dag.ts`), which replays them once.
   */
  leaves?: string | undefined
  /** Bytes received but not yet in the staged write, for the next PATCH to send first. */
  carry: { key: string; bytes: number } | null
}

export function parseEntry(part: string): StagedEntry {
  try {
    const entry = JSON.parse(part) as StagedEntry
    if (typeof entry === 'object' && entry !== null && Number.isSafeInteger(entry.at)) return entry
  } catch {
    // reported below
  }
  throw new PinfoldError('INTERNAL', 'an upload session holds a part record it cannot read')
}

/** Where a recorded part began: the entry's `at`, or the offset in a part blob's key (`tus/<id>/<offset>-…`). */
export function partStart(part: string): number | undefined {
  if (part.startsWith('{')) return parseEntry(part).at
  const start = /\/(\d+)-[^/]*$/.exec(part)?.[1]
  return start === undefined ? undefined : Number(start)
}

/** Every leaf digest recorded in a staged session's parts (see {@link StagedEntry.leaves}), in order. */
export function leafDigests(entries: readonly StagedEntry[]): Uint8Array[] {
  return entries.flatMap((entry) => splitDigests(entry.leaves ?? ''))
}

/** SHA-256 digests stored one after another, base64. */
export function splitDigests(base64: string): Uint8Array[] {
  const bytes = Buffer.from(base64, 'base64')
  const digests: Uint8Array[] = []
  for (let at = 0; at < bytes.length; at += 32) digests.push(bytes.subarray(at, at + 32))
  return digests
}

/**
 * Streams one PATCH into the staged write: the previous carry first, then the body, cut into
 * leaves and hashed as they pass; complete leaves go to one part (started once at least
 * `minPartBytes` are there, or the upload's last byte came), the rest to a new carry blob.
 * Nothing is recorded here: the caller advances the session with the entry and builds the DAG
 * from the digests of the leaves the part holds, in order.
 * `final`: whether the body is to end exactly at the upload's length (decided by the caller's
 * meter, which refuses more); a body that ends earlier is not final.
 */
export async function appendStagedPatch(
  blobs: BlobStore,
  writes: StagedBlobWrites,
  staged: SessionStagedWrite,
  previous: StagedEntry | undefined,
  stored: number,
  at: number,
  body: AsyncIterable<Uint8Array>,
  isFinal: (received: number) => boolean,
  carryKey: string,
  options: CallOptions,
): Promise<{ entry: StagedEntry; digests: Uint8Array[] }> {
  const { signal } = options
  const cutter = new LeafCutter(STAGED_LEAF_BYTES)
  const carryIn = previous?.carry ?? null
  let received = 0
  const input = (async function* () {
    if (carryIn) yield* await blobs.get(carryIn.key, { signal })
    for await (const chunk of coalesce(body, MIN_PIECE_BYTES)) {
      received += chunk.length
      yield chunk
    }
  })()
  const iterator = input[Symbol.asyncIterator]()
  // Complete leaves read ahead while the part has not begun (at most minPartBytes + one leaf).
  const ahead: Uint8Array[] = []
  let aheadBytes = 0
  let ended = false
  const minPart = writes.minPartBytes
  while (aheadBytes < minPart) {
    const next = await iterator.next()
    if (next.done) {
      ended = true
      break
    }
    for (const piece of cutter.push(next.value)) {
      ahead.push(piece)
      aheadBytes += piece.length
    }
  }
  let tail: Uint8Array[] = []
  const partSource = async function* () {
    yield* ahead.splice(0)
    if (!ended) {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield* cutter.push(next.value)
      ended = true
    }
    const last = isFinal(received)
    tail = cutter.finish(last)
    if (last) yield* tail.splice(0)
  }
  let part: { size: number; part: string } | null = null
  if (!ended || isFinal(received) || aheadBytes >= minPart) {
    part = await writes.appendPart(staged.key, staged.handle, stored, partSource(), options)
  } else {
    // too short for a part of its own: every byte waits in the carry
    tail = [...ahead, ...cutter.finish(false)]
    cutter.digests.length = 0
  }
  if (part?.size === 0) part = null
  const carryBytes = tail.reduce((sum, piece) => sum + piece.length, 0)
  let carry: StagedEntry['carry'] = null
  if (carryBytes > 0) {
    await blobs.put(carryKey, toAsync(tail), { signal })
    carry = { key: carryKey, bytes: carryBytes }
  }
  return { entry: { at, part: part?.part ?? null, stored: part?.size ?? 0, carry }, digests: cutter.digests }
}

async function* toAsync(pieces: Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* pieces
}
